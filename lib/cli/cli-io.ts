// What a command reads and writes: the process's streams, environment and
// folder, passed in so tests run commands against their own. A leaf, so the
// commands and main.ts (which dispatches to them) do not import each other.
export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  cwd: string;
}
