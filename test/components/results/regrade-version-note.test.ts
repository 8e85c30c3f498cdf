import { describe, expect, it } from "vitest";
import { versionNote } from "../../../components/results/regrade-form";

// Re-grade with…'s version options: the run's own version and the current one
// in one parenthesis ("v1 (current, this run's)"), not "(current) (this run's)".

describe("versionNote", () => {
  it("says current and this run's together, each alone, or nothing", () => {
    expect(versionNote({ current: true, runs: true })).toBe(" (current, this run's)");
    expect(versionNote({ current: true, runs: false })).toBe(" (current)");
    expect(versionNote({ current: false, runs: true })).toBe(" (this run's)");
    expect(versionNote({ current: false, runs: false })).toBe("");
  });
});
