import { loadSuite } from "../config/load-suite";
import type { LoadResult, ServerConfig } from "../config/types";
import { checkDraft, type DraftCheck } from "../engine/check-draft";
import { cacheMinimumOf } from "../judge/cache-minimums";
import { priceOf } from "../judge/pricing";
import { allowListedOrNone } from "../live/allow-servers";

// The work a browser's suite text costs the server: parsing, validating and
// planning it. Plain data in and out (it crosses a thread boundary by
// structured clone), so the allow-list travels as its servers, not as a check.

export type SuiteTask =
  | {
      kind: "draft";
      text: string;
      file: string;
      defaultModel: string;
      judgeUnavailable?: string;
      /** The dashboard's MCP allow-list; undefined when none is configured (no server is allowed). */
      allowListed?: Record<string, ServerConfig>;
    }
  | { kind: "load"; text: string; file: string };

export type SuiteTaskResult<T extends SuiteTask> = T extends { kind: "draft" } ? DraftCheck : LoadResult;

export function runSuiteTask<T extends SuiteTask>(task: T): SuiteTaskResult<T> {
  if (task.kind === "load") return loadSuite({ text: task.text, file: task.file }) as SuiteTaskResult<T>;
  return checkDraft({
    text: task.text,
    file: task.file,
    priceOf,
    cacheMinimumOf,
    defaultModel: task.defaultModel,
    ...(task.judgeUnavailable === undefined ? {} : { judgeUnavailable: task.judgeUnavailable }),
    allowServer: allowListedOrNone(task.allowListed),
  }) as SuiteTaskResult<T>;
}
