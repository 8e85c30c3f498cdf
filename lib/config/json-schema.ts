import * as z from "zod";
import { SuiteSchema } from "./schema";

// The JSON Schema that editors use (Monaco in the dashboard, VS Code through
// `# yaml-language-server: $schema=...`), generated from the one zod schema.
// public/rubric-schema.json is this output, committed; a test fails on drift.

export const RUBRIC_SCHEMA_ID = "https://rubric.studio/schema/rubric-schema.json";

export function buildJsonSchema(): Record<string, unknown> {
  // "input" so that fields with defaults stay optional for the author;
  // draft-07 because it is what yaml-language-server handles best.
  const schema = z.toJSONSchema(SuiteSchema, { io: "input", target: "draft-7" }) as Record<
    string,
    unknown
  >;
  return { ...schema, $id: RUBRIC_SCHEMA_ID, title: "Rubric Studio suite" };
}

export function jsonSchemaText(): string {
  return `${JSON.stringify(buildJsonSchema(), null, 2)}\n`;
}
