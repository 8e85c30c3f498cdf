import { checkDraft } from "../../../lib/engine/plan/check-draft";
import { explainPlan } from "../../../lib/engine/plan/explain-plan";
import { renderExplain } from "../../../lib/engine/plan/render-explain";
import { planSuite } from "../../../lib/engine/plan/plan-suite";
import { loadSuite } from "../../../lib/config/load-suite";
import type { SuiteConfig } from "../../../lib/config/types";
import { cacheMinimumOf } from "../../../lib/judge/cache-minimums";
import { priceOf } from "../../../lib/judge/pricing";

/** The validate route's answer for `text`, priced as the server prices it (the plan panel's input). */
export const checkedDraft = (text: string, file = "suite.yaml") =>
  checkDraft({
    text,
    file,
    priceOf,
    cacheMinimumOf,
    defaultModel: "claude-sonnet-4-5",
  });

/** What `eval --explain` prints for `text` (no store, the same prices): the figures the panel must match. */
export const explainedDraft = (text: string) =>
  renderExplain(
    explainPlan(
      planSuite({
        suite: (loadSuite({ text, file: "suite.yaml" }) as { value: SuiteConfig }).value,
        defaultModel: "claude-sonnet-4-5",
      }),
      priceOf,
      { cacheMinimumOf },
    ),
  );
