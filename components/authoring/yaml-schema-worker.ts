// The editor's YAML worker: monaco-yaml's own, with every schema request
// answered offline by the bundled schema (see offline-schema-fetch.ts). The
// order of the imports is the order they run in.
import "./offline-schema-fetch";
import "monaco-yaml/yaml.worker.js";
