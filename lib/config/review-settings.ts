import * as z from "zod";
import { parseYaml } from "./yaml-locator";

// The suite's `review:` block: how its review queue treats the questions runs
// leave for people. `second_opinion_rate` is the share of queued items offered
// to a second reviewer on purpose, so agreement between people can be measured.

const RATE = "second_opinion_rate is a share of items from 0 to 1 (0.1 = one item in ten)";

export const ReviewSettingsSchema = z
  .strictObject({
    second_opinion_rate: z
      .number({ error: RATE })
      .min(0, { error: RATE })
      .max(1, { error: RATE })
      .optional()
      .describe(
        "Share (0..1) of the review queue's items offered to a second, different reviewer " +
          "after the first label, for agreement between people. Default 0.",
      ),
  })
  .describe("The review queue's settings for this suite.");

export interface ReviewSettings {
  secondOpinionRate: number;
}

/**
 * The review settings of a saved suite version's text (already checked when it was loaded); a text
 * that does not parse has the defaults.
 */
export function reviewSettingsOf(text: string): ReviewSettings {
  const parsed = parseYaml(text, "suite.yaml");
  const block =
    parsed.ok && parsed.data && typeof parsed.data === "object"
      ? (parsed.data as { review?: unknown }).review
      : undefined;
  const settings = ReviewSettingsSchema.safeParse(block ?? {});
  return { secondOpinionRate: settings.success ? (settings.data.second_opinion_rate ?? 0) : 0 };
}
