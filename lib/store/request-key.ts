import { createHash } from "node:crypto";
import * as z from "zod";
import type { JudgeRequest, VerdictKind } from "../engine/ports/judge-port";
import { verdictSchemaFor } from "../engine/ports/verdict";

// The judge cache's key: a hash of everything that decides a verdict. Two
// requests with the same key would get the same answer, so one stored call
// serves both. The juror's sample number is in it, so a jury of three is
// three real calls, not one verdict copied thrice.

const schemaText = new Map<VerdictKind, string>();

function verdictSchemaText(kind: VerdictKind): string {
  let text = schemaText.get(kind);
  if (text === undefined) {
    text = JSON.stringify(z.toJSONSchema(verdictSchemaFor(kind)));
    schemaText.set(kind, text);
  }
  return text;
}

export function requestKey(request: JudgeRequest<VerdictKind>): string {
  const hash = createHash("sha256");
  // Length-prefixed fields: no choice of prompt text can make two different
  // requests hash alike by moving a boundary.
  for (const part of [
    request.model,
    String(request.maxTokens),
    request.templateVersion,
    request.verdict,
    verdictSchemaText(request.verdict),
    String(request.sample),
    request.stablePrompt,
    request.candidatePrompt,
    request.taskPrompt,
  ]) {
    hash.update(`${part.length}:`).update(part);
  }
  return hash.digest("hex");
}
