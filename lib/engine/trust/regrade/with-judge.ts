import type { SuiteConfig } from "../../../config/types";

// A regrade with another judge (`regrade --judge`, the dashboard's Re-grade
// with… a judge model): the same rubrics, every eval judged by one model.

/** Every eval judged by `model` instead of its own judge model or panel. */
export function withJudge(suite: SuiteConfig, model: string): SuiteConfig {
  return {
    ...suite,
    evals: suite.evals.map((e) => {
      const { panel: _panel, ...judge } = e.judge;
      return { ...e, judge: { ...judge, model } };
    }),
  };
}
