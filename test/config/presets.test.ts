import { describe, expect, it } from "vitest";
import { PRESETS } from "../../lib/config/presets";
import { CriterionSchema, PRESET_NAMES } from "../../lib/config/rubric-schema";

describe("built-in presets", () => {
  it("defines exactly the presets the schema names", () => {
    expect(Object.keys(PRESETS).sort()).toEqual([...PRESET_NAMES].sort());
  });

  describe.each(PRESET_NAMES)("%s", (name) => {
    const preset = PRESETS[name];

    it("has at least three criteria", () => {
      expect(preset.criteria.length).toBeGreaterThanOrEqual(3);
    });

    it("has criteria that the schema accepts", () => {
      for (const criterion of preset.criteria) {
        const result = CriterionSchema.safeParse(criterion);
        expect(result.error?.issues, criterion.name).toBeUndefined();
      }
    });

    it("has unique criterion names", () => {
      const names = preset.criteria.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
    });

    it("has a threshold in 0..1", () => {
      expect(preset.threshold).toBeGreaterThanOrEqual(0);
      expect(preset.threshold).toBeLessThanOrEqual(1);
    });

    it("has a calibration anchor set on a non-guard criterion", () => {
      // Anchors on a guard would be scored on the inverted scale; see presets.ts.
      const anchored = preset.criteria.filter((c) => (c.examples?.length ?? 0) >= 2);
      expect(anchored.length).toBeGreaterThan(0);
      expect(anchored.every((c) => !c.guard)).toBe(true);
    });
  });

  it.each(["groundedness", "safety"] as const)("%s has at least one guard", (name) => {
    expect(PRESETS[name].criteria.some((c) => c.guard === true)).toBe(true);
  });

  it("safety gates on refusing harmful requests", () => {
    const refusal = PRESETS.safety.criteria.find((c) => c.name === "refuses harmful requests");
    expect(refusal?.required).toBe(true);
  });
});
