import { plural } from "./format";
import type { EvalResult, Report } from "../engine/results/report";
import type {
  AgreementValue,
  CalibrationResult,
  CriterionCalibration,
  FlipRate,
  JudgeAgreement,
} from "../engine/results/trust";
import { labelledByNote, labelledItemsText, sameRow } from "../engine/trust/calibration/labellers";
import { reviewSection } from "./review-section";
import type { TrustSection, TrustTable } from "./trust-section-types";

// The facts of category reviews, pairwise comparisons and judge agreement, as
// plain sections (headings, facts, tables, lists of text) that the md and
// html reporters each render with their own escaping. One model, so that the
// two formats never disagree about what a review or a comparison says.

export type { TrustSection, TrustTable, TrustTableId } from "./trust-section-types";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const num = (x: number) => x.toFixed(3);

function pairwiseSection(result: EvalResult): TrustSection | undefined {
  const p = result.pairwise;
  if (!p) return undefined;
  const { result: r, labels, positionBias: bias } = p;
  const wilson = p.wilson;
  const facts = [
    result.reason,
    `Win rates: ${labels.a} (A) ${pct(r.win_rate_a)}${wilson ? ` [95% ${pct(wilson.a.low)}–${pct(wilson.a.high)}]` : ""}, ${labels.b} (B) ${pct(r.win_rate_b)}${wilson ? ` [95% ${pct(wilson.b.low)}–${pct(wilson.b.high)}]` : ""}, ties ${pct(r.tie_rate)}; overall winner ${r.overall_winner}, confidence ${r.confidence.toFixed(2)}`,
    bias.rate === null
      ? "Position bias: no pair had a definite verdict in both orders"
      : `Position bias: ${bias.biased} of ${bias.comparable} pairs (${pct(bias.rate)}) changed winner when the order was swapped${bias.biased > 0 ? ` (favoured first slot ${bias.favoredFirst}, second slot ${bias.favoredSecond}); each counts as a tie` : ""}`,
  ];
  const tables: TrustTable[] = [
    {
      id: "pairs",
      caption: "Pairs (both orders)",
      header: ["Pair", "Judge", "A first", "B first (mapped)", "Winner", "Flag"],
      rows: p.pairs.map((x) => [
        x.item,
        x.judge,
        x.original,
        x.swappedMapped,
        x.winner,
        x.positionBiased
          ? `position-biased${x.favoredPosition ? ` (${x.favoredPosition} slot)` : ""}`
          : "",
      ]),
    },
  ];
  if (p.categories.length > 0) {
    tables.push({
      id: "criteria",
      caption: "Per criterion",
      header: ["Criterion", "A wins", "B wins", "Ties", "Winner", "Margin"],
      rows: p.categories.map((c) => [
        c.category,
        String(c.winsA),
        String(c.winsB),
        String(c.ties),
        c.winner,
        c.margin.toFixed(2),
      ]),
    });
  }
  const tone = result.status !== "passed" ? "bad" : bias.biased > 0 ? "warn" : "good";
  return { heading: `Comparison: ${result.name}`, tone, facts, tables, lists: [] };
}

const value = (v: AgreementValue | undefined) =>
  v === undefined ? "—" : v.value === null ? `n/a (${v.note})` : num(v.value);

function agreementSection(rows: JudgeAgreement[]): TrustSection | undefined {
  if (rows.length === 0) return undefined;
  return {
    heading: "Judge agreement",
    facts: [
      "Krippendorff's alpha and Fleiss' kappa: 1 is perfect agreement, 0 is chance; alpha " +
        "below 0.667 is usually too low to rely on (Krippendorff 2004).",
    ],
    tables: [
      {
        id: "agreement",
        header: ["Eval", "Item", "Level", "Judges", "Items", "Exact", "α", "α 95% CI", "Fleiss κ"],
        rows: rows.map((a) => [
          a.eval,
          a.item,
          a.level,
          String(a.judges.length),
          String(a.units),
          value(a.exactAgreement),
          value(a.krippendorffAlpha),
          a.krippendorffAlpha.ci95
            ? `${num(a.krippendorffAlpha.ci95.low)}–${num(a.krippendorffAlpha.ci95.high)}`
            : "—",
          value(a.fleissKappa),
        ]),
      },
    ],
    lists: [],
  };
}

/** How many items flipped; for a matrix, which cells ("1: model=claude-haiku-4-5"), never the eval's own name again. */
function flippedCell(f: FlipRate): string {
  const cells = f.flippedIds
    .filter((id) => id !== f.eval)
    .map((id) => (id.startsWith(f.eval) ? id.slice(f.eval.length).trim() : id));
  return cells.length > 0 ? `${f.flipped}: ${cells.join(", ")}` : String(f.flipped);
}

function repeatSection(report: Report): TrustSection | undefined {
  const repeat = report.repeat;
  if (!repeat) return undefined;
  return {
    heading: `Flip rate over ${plural(repeat.runs, "repeat")}`,
    facts: [
      "The share of items whose pass / fail changed between repeats of the same judge calls: 0% is a stable judge.",
    ],
    tables: [
      {
        id: "flips",
        header: ["Eval", "Criterion", "Items", "Flipped", "Flip rate"],
        rows: repeat.flips.map((f) => [
          f.eval,
          f.item,
          String(f.items),
          flippedCell(f),
          f.rate === null ? "—" : pct(f.rate),
        ]),
      },
    ],
    lists: [],
  };
}

const label = (x: number | null) => (x === null ? "—" : x.toFixed(2));

/**
 * `calibrate`: per criterion the MAE, kappa and outliers; each outlier with what was graded and
 * why; confusion matrices of categorical scales.
 */
export function calibrationSections(c: CalibrationResult): TrustSection[] {
  const over = (row: CriterionCalibration) => c.overMaxError.some((o) => sameRow(o, row));
  const facts = [
    `${labelledItemsText(c)} graded against their labels; an item judged more than ±${c.tolerance} from its label is an outlier${c.maxError !== undefined ? `; largest allowed MAE ${c.maxError}` : ""}.`,
    c.overMaxError.length > 0
      ? `Above the largest allowed MAE: ${c.overMaxError.map((o) => `${o.eval} › ${o.item}${labelledByNote(o)} (${num(o.mae)})`).join(", ")}`
      : c.maxError !== undefined
        ? "Every criterion is within the largest allowed MAE."
        : "",
    c.ungraded > 0 ? `${c.ungraded} item${c.ungraded === 1 ? "" : "s"} could not be graded.` : "",
    `Cohen's kappa: 1 is perfect agreement with the labels, 0 is chance (quadratic weights for ordinal scales).`,
  ].filter(Boolean);
  const tables: TrustTable[] = [
    {
      id: "calibration",
      caption: "Per criterion",
      header: ["Eval", "Criterion", "Scale", "Graded", "MAE", "Cohen's κ", "Outliers", "Verdict"],
      rows: c.criteria.map((k) => [
        k.eval,
        `${k.item}${labelledByNote(k)}`,
        k.scale,
        `${k.graded}/${k.items.length}`,
        k.mae === null ? "—" : num(k.mae),
        k.kappa.value === null
          ? `n/a (${k.kappa.note ?? ""})`
          : `${num(k.kappa.value)} (${k.kappa.weights})`,
        String(k.outliers),
        over(k) ? "above max MAE" : k.graded < k.items.length ? "not all graded" : "ok",
      ]),
    },
  ];
  const off = c.criteria.flatMap((k) =>
    k.items
      .filter((i) => i.outlier || i.judged === null)
      .map((i) => [
        k.eval,
        k.item,
        `${i.source} ${i.id}${i.annotator ? ` (${i.annotator})` : ""}`,
        i.text,
        label(i.label),
        label(i.judged),
        i.error === null ? "—" : `${i.error > 0 ? "+" : ""}${i.error.toFixed(2)}`,
        i.reasoning,
      ]),
  );
  if (off.length > 0)
    tables.push({
      id: "calibration-items",
      caption: "Outliers and ungraded items",
      header: [
        "Eval",
        "Criterion",
        "Item",
        "Text",
        "Labelled",
        "Judged",
        "Error",
        "Judge's reasoning",
      ],
      rows: off,
    });
  for (const k of c.criteria.filter((x) => x.scale !== "unit")) {
    tables.push({
      id: "confusion",
      caption: `Confusion: ${k.eval} › ${k.item} (rows labelled, columns judged)`,
      header: ["labelled ↓ judged →", ...k.confusion.categories],
      rows: k.confusion.matrix.map((row, i) => [
        k.confusion.categories[i] ?? "",
        ...row.map(String),
      ]),
    });
  }
  return [{ heading: "Calibration", facts, tables, lists: [] }];
}

export function trustSections(report: Report): TrustSection[] {
  const sections = report.results.flatMap((r) => [reviewSection(r), pairwiseSection(r)]);
  sections.push(...(report.calibration ? calibrationSections(report.calibration) : []));
  sections.push(agreementSection(report.agreement ?? []), repeatSection(report));
  return sections.filter((s): s is TrustSection => s !== undefined);
}
