import { loadSuite } from "../config/load-suite";
import { checkServerProviders } from "../config/server-providers";
import type { LoadResult, ServerConfig } from "../config/types";
import { checkDraft, type DraftCheck } from "../engine/plan/check-draft";
import { locateAnchors, type CriterionSpan } from "../engine/trust/calibration/locate-anchors";
import { cacheMinimumOf } from "../judge/cache-minimums";
import { priceOf } from "../judge/pricing";
import { providerResolution } from "../judge/provider-resolution";
import type { DashboardProviders } from "../judge/server-providers";
import { allowListedOrNone } from "../live/allow-servers";
import type { EvalResult } from "../engine/results/report";
import { agreementOf, type RunAgreement } from "../store/agreement-figures";

// The work a browser's suite text costs the server: parsing, validating and
// planning it. Plain data in and out (it crosses a thread boundary by
// structured clone), so the allow-list travels as its servers, not as a check,
// and the server's providers as their configuration and the names of the key
// variables that are set: no key value.

export type SuiteTask =
  | {
      kind: "draft";
      text: string;
      file: string;
      defaultModel: string;
      judgeUnavailable?: string;
      /** The dashboard's MCP allow-list; undefined when none is configured (no server is allowed). */
      allowListed?: Record<string, ServerConfig>;
      /** With them, the suite's providers: block is checked against them and each model's provider shown. */
      providers?: DashboardProviders;
    }
  | { kind: "load"; text: string; file: string; providers?: DashboardProviders }
  /** Check anchors: the suite loaded, and where each anchor was typed (the yaml package's document of the whole text: seconds for a large suite). */
  | { kind: "anchors"; text: string; file: string; providers?: DashboardProviders }
  /** A run's judge agreement (the agreement view of a run still running, or kept by no version): its sample's results, read by lib/store/run-agreement.ts. */
  | { kind: "agreement"; results: EvalResult[]; sampledFirst?: number; of?: number };

export interface AnchorsTaskResult {
  loaded: LoadResult;
  spans: CriterionSpan[];
}

export type SuiteTaskResult<T extends SuiteTask> = T extends { kind: "draft" }
  ? DraftCheck
  : T extends { kind: "anchors" }
    ? AnchorsTaskResult
    : T extends { kind: "agreement" }
      ? RunAgreement
      : LoadResult;

export function runSuiteTask<T extends SuiteTask>(task: T): SuiteTaskResult<T> {
  if (task.kind === "load") return loadDashboardSuite(task) as SuiteTaskResult<T>;
  if (task.kind === "agreement") return agreementOf(task) as SuiteTaskResult<T>;
  if (task.kind === "anchors") {
    const loaded = loadDashboardSuite(task);
    const spans = loaded.ok ? locateAnchors({ text: task.text, file: task.file }) : [];
    return { loaded, spans } as SuiteTaskResult<T>;
  }
  const resolution = task.providers
    ? providerResolution({
        declared: task.providers.providers,
        hasKey: (name) => task.providers!.keysSet.includes(name),
      })
    : undefined;
  return checkDraft({
    text: task.text,
    file: task.file,
    priceOf: resolution?.priceOf ?? priceOf,
    cacheMinimumOf: resolution?.cacheMinimumOf ?? cacheMinimumOf,
    defaultModel: task.defaultModel,
    ...(task.judgeUnavailable === undefined ? {} : { judgeUnavailable: task.judgeUnavailable }),
    allowServer: allowListedOrNone(task.allowListed),
    ...(task.providers && resolution
      ? { serverProviders: task.providers.providers, resolveModel: resolution.resolve }
      : {}),
  }) as SuiteTaskResult<T>;
}

/** A suite to run: it loads, and (from the dashboard) declares only the server's providers. */
function loadDashboardSuite(task: {
  text: string;
  file: string;
  providers?: DashboardProviders;
}): LoadResult {
  const loaded = loadSuite({ text: task.text, file: task.file });
  if (!loaded.ok || !task.providers) return loaded;
  const refused = checkServerProviders({
    text: task.text,
    suite: loaded.value,
    server: task.providers.providers,
  });
  return refused.length > 0 ? { ok: false, issues: refused } : loaded;
}
