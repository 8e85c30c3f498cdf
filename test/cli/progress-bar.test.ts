import { expect, test } from "vitest";
import { createProgressBar } from "../../lib/cli/progress-bar";

// The progress line counts the way the header does: "1,000", not "1000".

test("the progress bar prints counts with thousands separators, like the header", () => {
  let out = "";
  const stream = {
    columns: 200,
    write: (s: string) => ((out += s), true),
  } as unknown as NodeJS.WriteStream;
  let t = 0;
  const bar = createProgressBar({ stream, now: () => t });
  bar.onEvent({ type: "start", evals: 2500, judgeCalls: 12000 });
  t = 1000;
  bar.onEvent({ type: "call", done: 1000, total: 12000, costUsd: 0.5 });
  t = 2000;
  bar.onEvent({ type: "call", done: 1234, total: 12000, costUsd: 0.6 });
  const last = out.split("\r\x1b[2K").at(-1)!;
  expect(last).toContain("1,234/12,000 calls");
  expect(last).toContain("0/2,500 cells");
  expect(out).not.toMatch(/\b1234\b|\b1000\//);
});
