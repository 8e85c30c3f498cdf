import { readEnv, type Settings } from "../env/read-env";
import { parseReporterList } from "../report/registry";
import type { ReporterName } from "../report/reporter";
import type { CliIo } from "./cli-io";

// The start shared by the commands that grade a stored run again (`resume`,
// `regrade`): the environment's settings and the reporters asked for, or an
// error line and exit 2.

/** What the command goes on with: its settings, reporters, and how it fails (an error line, exit 2). */
export interface StoredRunSetup {
  ok: true;
  settings: Settings;
  reporters: ReporterName[];
  fail: (message: string) => 2;
}

export function storedRunSetup(input: {
  io: CliIo;
  reporter: string;
}): StoredRunSetup | { ok: false; exitCode: 2 } {
  const fail = (message: string): 2 => {
    input.io.stderr.write(`error: ${message}\n`);
    return 2;
  };
  const settings = readEnv(input.io.env);
  if (!settings.ok) return { ok: false, exitCode: fail(settings.message) };
  const reporters = parseReporterList(input.reporter);
  if (!reporters.ok) return { ok: false, exitCode: fail(reporters.message) };
  return { ok: true, settings: settings.value, reporters: reporters.value, fail };
}
