export default function Home() {
  return (
    <main>
      <h1>Rubric Studio</h1>
      <p className="muted">Author, run and inspect LLM-as-judge rubrics.</p>
      <p>
        The dashboard is on its way. Today the engine runs from the command line: write a suite in YAML, check it, see the plan and its cost, and
        grade it with a Claude judge.
      </p>
      <pre>
        <code>{`npx rubric-studio validate --config suite.yaml
npx rubric-studio eval --explain --config suite.yaml
npx rubric-studio eval --config suite.yaml --reporter pretty,junit --output reports/`}</code>
      </pre>
      <p>
        Editors get completion and hover docs from the suite schema at <a href="/rubric-schema.json">/rubric-schema.json</a>.
      </p>
    </main>
  );
}
