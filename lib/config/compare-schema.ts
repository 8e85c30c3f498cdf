import * as z from "zod";
import { LIMITS, atMost } from "./limits";

// The pairwise form of an eval: `compare:` instead of `response:`. Two
// outputs for the same input, judged against the eval's rubric (a free-form
// question, or criteria for per-criterion winners) in both orders, always.

export const CompareItemSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .optional()
      .describe("An id for the item in reports (default: its position)."),
    input: z.string().optional().describe("The shared input (prompt) both outputs answer."),
    output_a: z.string().min(1).describe("The first output."),
    output_b: z.string().min(1).describe("The second output."),
  })
  .describe("One pair of outputs to compare.");

export const CellSelectorSchema = z
  .strictObject({
    agent: z
      .string()
      .min(1)
      .optional()
      .describe("The agent model of the cell (one of the eval's matrix.agents)."),
    prompt: z
      .int()
      .min(1)
      .optional()
      .describe(
        "The cell's prompt: its 1-based position in the eval's matrix.prompts (as in `prompt=#2`).",
      ),
    model: z
      .string()
      .optional()
      .describe(
        "Not a way to pick a cell: the judge model does not change what is graded. Pick cells by agent or prompt.",
      ),
  })
  .describe(
    "One side of a comparison of two matrix cells: the coordinates that set it apart. What " +
      "it leaves out, it takes from the other side.",
  );

export const CompareSchema = z
  .strictObject({
    eval: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Compare two matrix cells of this eval (with a and b) instead of outputs given here.",
      ),
    a: CellSelectorSchema.optional().describe(
      "The cells of side A, e.g. { agent: claude-haiku-4-5 }.",
    ),
    b: CellSelectorSchema.optional().describe(
      "The cells of side B, e.g. { agent: claude-sonnet-4-6 }.",
    ),
    input: z.string().optional().describe("A single comparison: the shared input."),
    output_a: z.string().min(1).optional().describe("A single comparison: output A."),
    output_b: z.string().min(1).optional().describe("A single comparison: output B."),
    items: z
      .array(CompareItemSchema)
      .min(1, { error: "items needs at least one pair" })
      .max(LIMITS.compareItems, atMost(LIMITS.compareItems, "a comparison has at most {n} items"))
      .optional()
      .describe("Several comparisons; win rates are over these."),
    labels: z
      .strictObject({ a: z.string().min(1).optional(), b: z.string().min(1).optional() })
      .optional()
      .describe('Names for A and B in reports (e.g. { a: "v1", b: "v2" }).'),
    expect: z
      .enum(["A", "B"], { error: "expect is A or B" })
      .optional()
      .describe(
        "Gate: the eval passes only when this output is the overall winner. Without it the " +
          "comparison is informational.",
      ),
  })
  .describe(
    "A pairwise comparison: input with output_a and output_b, items: [...], or two matrix " +
      "cells of another eval (eval, a, b). Every pair is judged in both orders.",
  );

export type CompareInput = z.output<typeof CompareSchema>;
