// A suite of `evals` evals, each over a matrix of `prompts` prompts answered by a model: the size
// a new user's suite reaches (20 × 50 = 1,000 cells), for the editor's plan panel.
export function matrixSuite({ evals, prompts }: { evals: number; prompts: number }): string {
  const list = Array.from({ length: prompts }, (_, p) => `        - "Question ${p + 1}: why?"`);
  const evalYaml = (e: number) => `  - name: eval ${e + 1}
    agent: { model: claude-haiku-4-5 }
    rubric: "Answers question ${e + 1} correctly in plain words."
    matrix:
      prompts:
${list.join("\n")}`;
  return `judge: { model: claude-sonnet-4-5 }
evals:
${Array.from({ length: evals }, (_, e) => evalYaml(e)).join("\n")}
`;
}
