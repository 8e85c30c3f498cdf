import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { planCalibration } from "../engine/trust/calibration/plan-calibration";
import { labelledByNote, labelledItemsText, sameRow } from "../engine/trust/calibration/labellers";
import { runCalibration, calibrationReport } from "../engine/run-calibration";
import { DEFAULT_TOLERANCE } from "../engine/trust/calibration/calibration-stats";
import {
  CALIBRATION_LIMITS,
  calibrationSizeIssue,
} from "../engine/trust/calibration/calibration-size";
import { formatIssue } from "../config/load-suite";
import type { CalibrationResult, CriterionCalibration } from "../engine/results/trust";
import { formatUsd, plural } from "../engine/results/format-score";
import { stripControl } from "../report/escape";
import { createRedactor } from "../engine/results/redact-values";
import { parseReporterList, type ReporterName } from "../report/registry";
import { writeReports } from "./write-reports";
import { suiteNameOf } from "./suite-name";
import { prepareJudging, type JudgingOptions } from "./prepare-judging";
import type { Settings } from "../env/read-env";
import type { CliIo } from "./cli-io";

// `rubric-studio calibrate --config F`: grades every calibration anchor,
// category example and annotated dataset item with the configured judge and
// compares with the labels. Prints a table (or the plain JSON object with
// --json); exit 1 when a criterion's MAE is above --max-error or an item could
// not be graded, 2 for config or usage errors, and for a suite with nothing
// to calibrate. --reporter json,md,html renders the canonical report with its
// calibration section; with run history (--store or DATABASE_URL) the result
// is stored as a calibration run, for the dashboard's view and drift.

export interface CalibrateOptions extends JudgingOptions {
  tolerance?: number;
  maxError?: number;
  json?: boolean;
  output?: string;
  reporter?: string;
  format?: string;
  store?: boolean;
  /** The stored suite's name, when it is not the --config path (a file downloaded from the dashboard). */
  suite?: string;
  maxCost?: number;
  concurrency: number;
}

const fixed = (x: number | null, digits = 3) => (x === null ? "—" : x.toFixed(digits));

/**
 * A criterion's mark: ✗ fails the run (MAE above --max-error, or an item not graded), ! has
 * outliers, ✓ every item within tolerance.
 */
function markOf(result: CalibrationResult, c: CriterionCalibration): "✗" | "!" | "✓" {
  if (c.graded < c.items.length || result.overMaxError.some((o) => sameRow(o, c))) return "✗";
  return c.outliers > 0 ? "!" : "✓";
}

function legend(result: CalibrationResult): string {
  const tolerance = `±${result.tolerance}`;
  const fails =
    result.maxError !== undefined
      ? `MAE above --max-error ${result.maxError}, or an item not graded (exit 1)`
      : "an item not graded (exit 1; with no --max-error, MAE alone fails nothing)";
  return `✓ every item within ${tolerance} of its label · ! outliers: items off by more than ${tolerance} · ✗ ${fails}`;
}

export function renderCalibration(result: CalibrationResult): string {
  const lines = [
    `Calibration: ${labelledItemsText(result)}, tolerance ±${result.tolerance}${result.maxError !== undefined ? `, max MAE ${result.maxError}` : ""}`,
    "",
  ];
  for (const c of result.criteria) {
    lines.push(
      `${markOf(result, c)} ${stripControl(c.eval)} › ${stripControl(c.item)} (${c.scale})${stripControl(labelledByNote(c))}: MAE ${fixed(c.mae)}, Cohen's κ (${c.kappa.weights}) ${c.kappa.value === null ? `n/a (${c.kappa.note})` : fixed(c.kappa.value)}, ${c.graded}/${c.items.length} graded, ${c.outliers} outlier${c.outliers === 1 ? "" : "s"}`,
    );
    for (const item of c.items.filter((i) => i.outlier || i.judged === null)) {
      lines.push(
        `    ${item.source} ${stripControl(item.id)}${item.annotator ? ` (${stripControl(item.annotator)})` : ""}: labelled ${fixed(item.label, 2)}, judged ${fixed(item.judged, 2)}${item.judged === null ? ` (${stripControl(item.reasoning)})` : ""}`,
      );
    }
  }
  lines.push(
    "",
    legend(result),
    `${plural(result.judgeCalls, "judge call")} · ${formatUsd(result.costUsd)}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The formats a calibration can be written in: the table, and the reporters that carry a calibration section. */
const CALIBRATION_FORMATS: ReporterName[] = ["pretty", "json", "md", "html"];

function reportersOf(
  options: CalibrateOptions,
): { ok: true; value: ReporterName[] } | { ok: false; message: string } {
  const parsed = parseReporterList(options.format ?? options.reporter ?? "pretty");
  if (!parsed.ok) return parsed;
  const unsupported = parsed.value.filter((n) => !CALIBRATION_FORMATS.includes(n));
  if (unsupported.length > 0)
    return {
      ok: false,
      message: `calibrate writes ${CALIBRATION_FORMATS.join(", ")}; not ${unsupported.join(", ")}`,
    };
  return parsed;
}

async function storeCalibration(input: {
  result: CalibrationResult;
  options: CalibrateOptions;
  settings: Settings;
  yaml: string;
  toolVersion: string;
  io: CliIo;
}): Promise<void> {
  const { result, options, settings } = input;
  const [{ openDatabase }, { createCalibrationStore }] = await Promise.all([
    import("../store/open-database"),
    import("../store/calibration-store"),
  ]);
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    const runId = await createCalibrationStore(db.prisma).saveCalibration({
      // The same suite name `eval --store` uses, so both land on one suite.
      suiteName: options.suite ?? suiteNameOf({ config: options.config, cwd: input.io.cwd }),
      yaml: input.yaml,
      result,
      startedBy: "cli",
      config: {
        file: options.config,
        cwd: input.io.cwd,
        toolVersion: input.toolVersion,
        judgeModel: settings.judgeModel,
        concurrency: options.concurrency,
        timeoutSeconds: options.timeout,
        ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
        ...(options.filter !== undefined ? { filter: options.filter } : {}),
        tolerance: result.tolerance,
        ...(result.maxError !== undefined ? { maxError: result.maxError } : {}),
      },
    });
    input.io.stderr.write(`Stored calibration run ${runId}\n`);
  } finally {
    await db.close();
  }
}

export async function calibrateCommand(input: {
  options: CalibrateOptions;
  io: CliIo;
  toolVersion: string;
}): Promise<number> {
  const { options, io, toolVersion } = input;
  const reporters = reportersOf(options);
  if (!reporters.ok) {
    io.stderr.write(`error: ${reporters.message}\n`);
    return 2;
  }
  const setup = await prepareJudging({ options, io });
  if (!setup.ok) return setup.exitCode;
  const { suite, settings, filter, judge, providers, text, batch } = setup.value;
  const planned = planCalibration(suite, filter);
  if (planned.probes.length === 0) {
    io.stderr.write(
      "error: nothing to calibrate: add examples (anchors) to criteria or categories, or " +
        "an eval dataset: with annotated items\n",
    );
    return 2;
  }
  const tooBig = calibrationSizeIssue({
    suite,
    ...(filter ? { filter } : {}),
    maxJudgeCalls: CALIBRATION_LIMITS.cli,
    hint: "narrow it with --filter",
  });
  if (tooBig) {
    io.stderr.write(`${formatIssue({ ...tooBig, file: options.config })}\n`);
    return 2;
  }
  const models = suite.evals.flatMap(
    (e) => e.judge.panel ?? [e.judge.model ?? settings.judgeModel],
  );
  const unavailable = models
    .map((m) => providers.resolve(m).unavailable)
    .find((reason) => reason !== undefined);
  if (unavailable !== undefined) {
    io.stderr.write(
      `${unavailable}: calibration of ${planned.probes.length} labelled items deferred.\n`,
    );
    return 0;
  }
  const startedAt = Date.now();
  // Anchors, dataset items and reasoning can quote credentials: redacted before anything is printed, written or stored.
  const result = createRedactor(providers.secrets).deep(
    await runCalibration(
      {
        suite,
        ...(filter ? { filter } : {}),
        defaultModel: settings.judgeModel,
        resolveModel: providers.resolve,
        concurrency: options.concurrency,
        ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
        ...(batch ? { batch } : {}),
        toolVersion,
        tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
        ...(options.maxError !== undefined ? { maxError: options.maxError } : {}),
      },
      { judge, now: Date.now, priceOf: providers.priceOf },
    ),
  );
  if (options.store || settings.databaseUrl)
    await storeCalibration({ result, options, settings, yaml: text, toolVersion, io });
  const names = reporters.value;
  const machine = names.filter((n) => n !== "pretty");
  if (options.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (names.includes("pretty")) io.stdout.write(renderCalibration(result));
  if (machine.length > 0) {
    const report = calibrationReport({
      calibration: result,
      suite,
      toolVersion,
      startedAt,
      finishedAt: Date.now(),
    });
    await writeReports({
      names: machine,
      report,
      ...(options.output !== undefined ? { output: options.output } : {}),
      io,
      color: false,
    });
  } else if (options.output !== undefined) {
    // Only the table asked for: --output keeps the plain result, as it always has.
    const target = path.resolve(io.cwd, options.output);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(result, null, 2)}\n`);
    io.stderr.write(`wrote calibration to ${options.output}\n`);
  }
  return result.overMaxError.length > 0 || result.ungraded > 0 ? 1 : 0;
}
