import * as monaco from "monaco-editor";
import { loader } from "@monaco-editor/react";
import { configureMonacoYaml } from "monaco-yaml";
import rubricSchema from "../../public/rubric-schema.json";

// Monaco from our own bundle, never a CDN, with monaco-yaml validating
// against the suite schema generated from the zod schema. Browser-only: this
// module is reached only through the editor's dynamic(..., { ssr: false }).
// The two workarounds are STACK.md's "Monaco with monaco-yaml, no CDN".

type WorkerEnv = { getWorker(moduleId: string, label: string): Worker };
type WebWorkerOptions = Parameters<typeof monaco.editor.createWebWorker>[0];

const env: WorkerEnv = {
  getWorker(_moduleId, label) {
    if (label === "yaml") return new Worker(new URL("monaco-yaml/yaml.worker.js", import.meta.url), { type: "module" });
    return new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" });
  },
};

let configured = false;

export function setUpMonaco(): typeof monaco {
  if (configured) return monaco;
  configured = true;
  (globalThis as { MonacoEnvironment?: WorkerEnv }).MonacoEnvironment = env;

  // Since monaco 0.55 createWebWorker needs `opts.worker`; monaco-worker-manager
  // 2.0.1 (under monaco-yaml) passes none, and validation would silently never
  // run ("Could not create web worker(s)"). Create it the way the old API did.
  const original = monaco.editor.createWebWorker.bind(monaco.editor);
  const shim = <T extends object>(opts: WebWorkerOptions & { moduleId?: string; label?: string; createData?: unknown }) => {
    if (opts.worker) return original<T>(opts);
    const worker = env.getWorker(opts.moduleId ?? "", opts.label ?? "");
    worker.postMessage("ignore");
    worker.postMessage(opts.createData);
    return original<T>({ ...opts, worker });
  };
  Object.assign(monaco.editor, { createWebWorker: shim });

  loader.config({ monaco });
  configureMonacoYaml(monaco, {
    enableSchemaRequest: false,
    validate: true,
    hover: true,
    completion: true,
    format: { enable: true },
    schemas: [{ uri: "https://rubric-studio.local/rubric-schema.json", fileMatch: ["*"], schema: rubricSchema as never }],
  });
  return monaco;
}
