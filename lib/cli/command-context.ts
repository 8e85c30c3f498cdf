import type { CliIo } from "./cli-io";

/**
 * What main.ts hands each group of commands it registers: the process's streams, the tool's
 * version, and where an action puts its exit code (main.ts returns it once parsing ends).
 */
export interface CommandsContext {
  io: CliIo;
  toolVersion: string;
  setExitCode: (code: number) => void;
}
