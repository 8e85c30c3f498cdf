import rubricSchema from "../../public/rubric-schema.json";

// Loaded first in the YAML worker (yaml-schema-worker.ts). A suite's
// `# yaml-language-server: $schema=...` modeline (the README tells everyone
// to write one, with a path that means something on disk, not here) makes
// monaco-yaml ask for that schema instead of the one it was configured with:
// a fetch that fails, and the editor loses hover, completion and schema
// markers. In this worker every schema request is answered with the bundled
// suite schema, whatever the modeline says, and nothing goes to the network.

const body = JSON.stringify(rubricSchema);

globalThis.fetch = async () =>
  new Response(body, { status: 200, headers: { "content-type": "application/schema+json" } });
