import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { planCalibration } from "../engine/calibration/plan-calibration";
import { runCalibration, DEFAULT_TOLERANCE, type CalibrationResult } from "../engine/calibration/run-calibration";
import { formatUsd } from "../engine/format-score";
import { priceOf } from "../judge/pricing";
import { stripControl } from "../report/escape";
import { prepareJudging, type JudgingOptions } from "./prepare-judging";
import type { CliIo } from "./main";

// `rubric-studio calibrate --config F`: grades every calibration anchor,
// category example and annotated dataset item with the configured judge and
// compares with the labels. Prints a table (or the plain JSON object with
// --json); exit 1 when a criterion's MAE is above --max-error or an item could
// not be graded, 2 for config or usage errors, and for a suite with nothing
// to calibrate.

export interface CalibrateOptions extends JudgingOptions {
  tolerance?: number;
  maxError?: number;
  json?: boolean;
  output?: string;
  maxCost?: number;
  concurrency: number;
}

const fixed = (x: number | null, digits = 3) => (x === null ? "—" : x.toFixed(digits));

export function renderCalibration(result: CalibrationResult): string {
  const lines = [`Calibration: ${result.probes} labelled items, tolerance ±${result.tolerance}${result.maxError !== undefined ? `, max MAE ${result.maxError}` : ""}`, ""];
  for (const c of result.criteria) {
    const over = result.overMaxError.some((o) => o.eval === c.eval && o.item === c.item);
    lines.push(
      `${over ? "✗" : "✓"} ${stripControl(c.eval)} › ${stripControl(c.item)} (${c.scale}): MAE ${fixed(c.mae)}, Cohen's κ (${c.kappa.weights}) ${c.kappa.value === null ? `n/a (${c.kappa.note})` : fixed(c.kappa.value)}, ${c.graded}/${c.items.length} graded, ${c.outliers} outlier${c.outliers === 1 ? "" : "s"}`,
    );
    for (const item of c.items.filter((i) => i.outlier || i.judged === null)) {
      lines.push(`    ${item.source} ${stripControl(item.id)}: labelled ${fixed(item.label, 2)}, judged ${fixed(item.judged, 2)}${item.judged === null ? ` (${stripControl(item.reasoning)})` : ""}`);
    }
  }
  lines.push("", `${result.judgeCalls} judge calls · ${formatUsd(result.costUsd)}`);
  return `${lines.join("\n")}\n`;
}

export async function calibrateCommand(input: { options: CalibrateOptions; io: CliIo; toolVersion: string }): Promise<number> {
  const { options, io, toolVersion } = input;
  const setup = await prepareJudging({ options, io });
  if (!setup.ok) return setup.exitCode;
  const { suite, settings, filter, judge } = setup.value;
  const planned = planCalibration(suite, filter);
  if (planned.probes.length === 0) {
    io.stderr.write("error: nothing to calibrate: add examples (anchors) to criteria or categories, or an eval dataset: with annotated items\n");
    return 2;
  }
  if (!judge) {
    io.stderr.write(`No ANTHROPIC_API_KEY is set: calibration of ${planned.probes.length} labelled items deferred.\n`);
    return 0;
  }
  const result = await runCalibration(
    {
      suite,
      ...(filter ? { filter } : {}),
      defaultModel: settings.judgeModel,
      concurrency: options.concurrency,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      toolVersion,
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      ...(options.maxError !== undefined ? { maxError: options.maxError } : {}),
    },
    { judge, now: Date.now, priceOf },
  );
  const text = options.json ? `${JSON.stringify(result, null, 2)}\n` : renderCalibration(result);
  if (options.output === undefined) io.stdout.write(text);
  else {
    const target = path.resolve(io.cwd, options.output);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(result, null, 2)}\n`);
    io.stdout.write(renderCalibration(result));
    io.stderr.write(`wrote calibration to ${options.output}\n`);
  }
  return result.overMaxError.length > 0 || result.ungraded > 0 ? 1 : 0;
}
