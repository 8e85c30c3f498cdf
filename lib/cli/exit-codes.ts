// The exit codes of `rubric-studio`: 0 all passed, 1 a fail / judge_error /
// budget skip, 2 a config or usage error. main.ts and the command groups it
// registers pick among them.

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
