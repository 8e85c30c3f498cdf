import type { z } from "zod";
import type { SuiteSchema } from "./schema";
import { BUILTIN_PROVIDERS, splitModelName } from "./provider-schema";
import { closestChoice } from "./zod-issues";
import type { DataPath } from "./yaml-locator";

// Every model name whose prefix names a provider must name a known one: a
// built-in (anthropic, openai) or one under providers:, judges and agents
// alike. Reported at the model.

type Suite = z.output<typeof SuiteSchema>;
type Judge = NonNullable<Suite["judge"]>;

/**
 * Why a model name cannot be resolved: a prefix that names no provider (a built-in or one of
 * `declared`), or nothing after the prefix; undefined when it can. The suite's models, and a judge
 * given on the command line or by the dashboard (`regrade --judge`, Re-grade with…).
 */
export function modelNameProblem(model: string, declared: readonly string[]): string | undefined {
  const known = [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...declared])];
  const { prefix, name } = splitModelName(model);
  if (prefix === undefined) return undefined;
  if (name.length === 0) return `"${model}" names no model after "${prefix}:"`;
  if (known.includes(prefix)) return undefined;
  const hint = closestChoice(prefix, known);
  return `unknown provider "${prefix}" in model "${model}"${hint ? ` (did you mean "${hint}"?)` : ""}; known providers: ${known.join(", ")} (declare others under providers:)`;
}

export function checkProviders(input: {
  suite: Suite;
  error: (path: DataPath, message: string) => void;
}): void {
  const { suite, error } = input;
  const declared = Object.keys(suite.providers ?? {});
  const checkModel = (model: string | undefined, path: DataPath) => {
    if (model === undefined) return;
    const problem = modelNameProblem(model, declared);
    if (problem !== undefined) error(path, problem);
  };
  const checkJudge = (judge: Judge | undefined, path: DataPath) => {
    if (!judge) return;
    checkModel(judge.model, [...path, "model"]);
    judge.panel?.forEach((model, i) => checkModel(model, [...path, "panel", i]));
  };
  checkJudge(suite.judge, ["judge"]);
  checkModel(suite.agent?.model, ["agent", "model"]);
  suite.evals.forEach((evalInput, i) => {
    checkJudge(evalInput.judge, ["evals", i, "judge"]);
    evalInput.matrix?.models?.forEach((model, j) =>
      checkModel(model, ["evals", i, "matrix", "models", j]),
    );
    // Agents run on providers too (a live run on an OpenAI-compatible model).
    checkModel(evalInput.agent?.model, ["evals", i, "agent", "model"]);
    evalInput.matrix?.agents?.forEach((model, j) =>
      checkModel(model, ["evals", i, "matrix", "agents", j]),
    );
  });
}
