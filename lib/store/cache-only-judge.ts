import type { JudgePort } from "../engine/ports/judge-port";
import { replySchemaFor } from "../engine/ports/verdict";
import { estimateRequest, type PriceOf } from "../engine/plan/explain-plan";
import type { PrismaClient } from "./generated/client";
import { requestKey } from "./request-key";

// The judge of the flips preview's counting pass (flips-preview.ts: `planFlipsPreview`), and the
// record of a call it does not make.

/** The call record of a call not made (a cache read, or one refused past the bound). */
export const NO_CALL = {
  templateVersion: "",
  attempts: 0,
  latencyMs: 0,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  costUsd: 0,
};

/**
 * A judge that only reads the judge cache: a stored verdict is answered, a
 * request it does not hold is counted (and priced) and answered as an error,
 * so nothing is paid and nothing is written. A tree stops at its first
 * uncounted node, so for trees the count is a lower bound; the paid pass is
 * bounded by itself all the same.
 */
export function cacheOnlyJudge(input: {
  prisma: PrismaClient;
  priceOf: PriceOf;
  misses: { costUsd: number | null }[];
}): JudgePort {
  return {
    async grade(request) {
      const row = await input.prisma.judgeCall.findUnique({
        where: { key: requestKey(request) },
        select: { status: true, verdict: true, model: true },
      });
      const verdict =
        row?.status === "done" ? replySchemaFor(request).safeParse(row.verdict) : null;
      if (verdict?.success)
        return { ok: true, verdict: verdict.data, call: { ...NO_CALL, model: request.model } };
      input.misses.push({ costUsd: estimateRequest(request, input.priceOf).costUsd });
      return {
        ok: false,
        error: { kind: "request", message: "not in the judge cache" },
        call: { ...NO_CALL, model: request.model },
      };
    },
  };
}
