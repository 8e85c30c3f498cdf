import * as monaco from "monaco-editor";
import { loader } from "@monaco-editor/react";
import { configureMonacoYaml } from "monaco-yaml";
import rubricSchema from "../../public/rubric-schema.json";

// Monaco from our own bundle, never a CDN, with monaco-yaml validating
// against the suite schema generated from the zod schema, whatever a suite's
// `$schema` modeline says. Browser-only: this
// module is reached only through the editor's dynamic(..., { ssr: false }).
// The two workarounds are STACK.md's "Monaco with monaco-yaml, no CDN".

type WorkerEnv = { getWorker(moduleId: string, label: string): Worker };
type WebWorkerOptions = Parameters<typeof monaco.editor.createWebWorker>[0];

const env: WorkerEnv = {
  getWorker(_moduleId, label) {
    if (label === "yaml")
      return new Worker(new URL("./yaml-schema-worker.ts", import.meta.url), { type: "module" });
    return new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), {
      type: "module",
    });
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
  const shim = <T extends object>(
    opts: WebWorkerOptions & { moduleId?: string; label?: string; createData?: unknown },
  ) => {
    if (opts.worker) return original<T>(opts);
    const worker = env.getWorker(opts.moduleId ?? "", opts.label ?? "");
    worker.postMessage("ignore");
    worker.postMessage(opts.createData);
    return original<T>({ ...opts, worker });
  };
  Object.assign(monaco.editor, { createWebWorker: shim });

  loader.config({ monaco });
  // Schema requests on: a `$schema` modeline makes monaco-yaml request the
  // schema it names, and our worker (yaml-schema-worker.ts) answers every
  // request with the bundled schema, offline. Off, the modeline's schema
  // fails to load and the editor loses hover, completion and markers.
  configureMonacoYaml(monaco, {
    enableSchemaRequest: true,
    validate: true,
    hover: true,
    completion: true,
    format: { enable: true },
    schemas: [
      {
        uri: "https://rubric-studio.local/rubric-schema.json",
        fileMatch: ["*"],
        schema: rubricSchema as never,
      },
    ],
  });
  return monaco;
}
