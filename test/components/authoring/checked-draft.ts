import { checkDraft } from "../../../lib/engine/plan/check-draft";
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
