import { RE2JS } from "re2js";

// `when.regex` comes from whoever writes the suite (in the dashboard, anyone
// with the editor), and runs against every candidate on the server. A
// backtracking engine lets one pattern such as `(a+)+$` stall the process for
// minutes, so the language's regexes are RE2: linear time in the candidate's
// length, and no backreferences or lookaround (RE2 cannot run them in linear
// time). The check at load time and the matcher share this one compiler.

export type CompiledWhenRegex = { ok: true; regex: RE2JS } | { ok: false; message: string };

const UNSUPPORTED =
  "when.regex is RE2 syntax: backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!) are not supported";

/** Compiles a `when.regex` with RE2 semantics, or says why it cannot be. */
export function compileWhenRegex(pattern: string): CompiledWhenRegex {
  try {
    return { ok: true, regex: RE2JS.compile(pattern) };
  } catch (e) {
    const reason = (e as Error).message.replace(/^error parsing regexp: /, "");
    const unsupported = /\\[1-9]|\(\?<?[=!]/.test(pattern);
    return {
      ok: false,
      message: `invalid regex: ${reason}${unsupported ? ` (${UNSUPPORTED})` : ""}`,
    };
  }
}
