import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import type { SuiteConfig } from "../config/types";
import type { EvalResult } from "../engine/results/report";
import type { ReportHead } from "../engine/run-suite";
import { knownCellNames } from "../engine/plan/plan-suite";
import { prettyNameWidth } from "../report/pretty";
import { scaleColumns } from "../report/pretty-columns";
import { REPORTERS, type ReporterName } from "../report/registry";
import type { ResultWriter, RunStart } from "../report/result-stream";
import type { CliIo } from "./cli-io";
import { reportTarget, shownTarget, writeReports } from "./write-reports";

// The reports of `eval` written as the run goes (issue 20): pretty, ndjson,
// csv, junit, tap and sarif take each result as it is graded and write it to
// their file (or stdout) at once; what they need at the end is written at the
// end. Nothing is held per result: junit's counts go before its results, so its
// results wait in a file on disk, not in memory; so does a second format bound
// for stdout, which the first one is using. json, md, html and gitlab render a
// whole report: the run collects its results for them, up to
// WHOLE_REPORT_LIMIT results (checked before the run starts).

/** The most results a run collects for a format that renders a whole report (json, md, html, gitlab). */
export const WHOLE_REPORT_LIMIT = 50_000;

/** The formats of `names` that cannot stream, and the message refusing them for a run of `results`. */
export function wholeReportRefusal(names: ReporterName[], results: number): string | undefined {
  const whole = names.filter((n) => !REPORTERS[n].stream);
  if (whole.length === 0 || results <= WHOLE_REPORT_LIMIT) return undefined;
  const streaming = Object.values(REPORTERS)
    .filter((r) => r.stream && r.name !== "pretty")
    .map((r) => r.name);
  return (
    `--reporter ${whole.join(",")} renders the whole report at the end, with every result in memory, ` +
    `up to ${WHOLE_REPORT_LIMIT.toLocaleString("en-US")} results; this run has ${results.toLocaleString("en-US")}. ` +
    `Use a format that is written as the run goes: --reporter ${streaming.join(", ")} (with --output FILE)`
  );
}

/** Every criterion (and review category) name of the suite's rubrics, sorted: the csv columns. */
export function criterionNames(suite: SuiteConfig): string[] {
  const names = suite.evals.flatMap((e) =>
    e.rubric.kind === "criteria"
      ? e.rubric.criteria.map((c) => c.name)
      : e.rubric.kind === "categories"
        ? e.rubric.rubricSet.categories.map((c) => c.name)
        : [],
  );
  return [...new Set(names)].sort();
}

/** Text gathered up to this size before one write: a write per result cost more CPU than the result (issue 20). */
const CHUNK_CHARS = 64 * 1024;
/** ... and written at least this often, so a reader of the file sees results as they come. */
const FLUSH_MS = 100;

type Chunked = NodeJS.WritableStream & {
  endChunks(): Promise<void>;
  /** Resolves once the stream underneath has taken what was written (at once when it has). */
  drained(): Promise<void>;
};

/**
 * Text written in chunks to `out`, which `end` closes. When `out` says the stream underneath is
 * full (false, as `write` does), `drained()` waits for its `drain` event on `target`.
 */
function chunked(
  out: (text: string) => boolean | void,
  end: () => Promise<void>,
  target?: NodeJS.EventEmitter,
): Chunked {
  let pending: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  let full: Promise<void> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (size === 0) return;
    const taken = out(pending.join(""));
    pending = [];
    size = 0;
    if (taken === false && target && !full)
      full = once(target, "drain").then(() => {
        full = undefined;
      });
  };
  return {
    write(text: string) {
      pending.push(text);
      size += text.length;
      if (size >= CHUNK_CHARS) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
      return true;
    },
    endChunks() {
      flush();
      return end();
    },
    drained: () => full ?? Promise.resolve(),
  } as Chunked;
}

function chunkedFile(file: string): Chunked {
  const stream = createWriteStream(file);
  return chunked(
    (text) => stream.write(text),
    async () => {
      stream.end();
      await once(stream, "close");
    },
    stream,
  );
}

/** What the reports know as the run starts. */
export function runStartOf(input: {
  suite: SuiteConfig;
  config: { toolVersion: string; maxCostUsd?: number };
  startedAt: number;
  total: number;
  /** The reports asked for: the pretty one's name column is sized only when it is among them. */
  reporters: readonly ReporterName[];
}): RunStart {
  const { suite, config } = input;
  return {
    schemaVersion: 1,
    tool: { name: "rubric-studio", version: config.toolVersion },
    suite: {
      file: suite.file,
      ...(suite.description !== undefined ? { description: suite.description } : {}),
    },
    startedAt: new Date(input.startedAt).toISOString(),
    total: input.total,
    ...(config.maxCostUsd !== undefined ? { maxCostUsd: config.maxCostUsd } : {}),
    criteria: criterionNames(suite),
    // The pretty report's name column, as wide as the widest name known before the run, so that
    // the first results line up with the rest (a streamed dataset's item names still widen it).
    // Walking every cell's name is the plan's size in work: only for the report that uses it.
    ...(input.reporters.includes("pretty")
      ? {
          nameWidth: prettyNameWidth(knownCellNames(suite)),
          // A comparison's or a review's line says win rates or a decision, in its own section.
          scaleColumns: scaleColumns(
            suite.evals
              .map((e) => e.rubric)
              .filter((r) => r.kind !== "pairwise" && r.kind !== "categories"),
          ),
        }
      : {}),
  };
}

interface Output {
  name: ReporterName;
  writer: ResultWriter;
  /** Where the text ends up: a file, or stdout. */
  target: string | undefined;
  /** Where start and results go while the run lasts: the target itself, or a spool file. */
  live: NodeJS.WritableStream;
  spool?: { file: string; stream: Chunked };
}

export interface ReportStreams {
  /** Some format needs the whole report: collect the results for `finish`. */
  collects: boolean;
  start(run: RunStart): void;
  result(result: EvalResult): void;
  /**
   * Resolves once every stream has taken what was written: a writer that waits for it between
   * pages writes no faster than its reader reads (a pipe not read holds it, not a growing buffer).
   */
  drained(): Promise<void>;
  finish(report: ReportHead, results: EvalResult[]): Promise<void>;
}

/** Opens every report of `names` (pretty to stdout, the others to --output or stdout). */
export async function openReportStreams(input: {
  names: ReporterName[];
  output?: string;
  io: CliIo;
  color: boolean;
  /** Called before text goes to stdout (the progress bar clears its line). */
  beforeStdout?: () => void;
}): Promise<ReportStreams> {
  const { names, output, io, color } = input;
  const spoolDir = await mkdtemp(path.join(os.tmpdir(), "rubric-studio-report-"));
  const outputs: Output[] = [];
  const whole: ReporterName[] = [];
  let stdoutTaken = false;
  const toStdout = chunked(
    (text) => {
      input.beforeStdout?.();
      return io.stdout.write(text);
    },
    async () => {},
    io.stdout,
  );
  for (const name of names) {
    const reporter = REPORTERS[name];
    if (!reporter.stream) {
      whole.push(name);
      continue;
    }
    const target = reportTarget({ names, name, output, cwd: io.cwd });
    if (target) await mkdir(path.dirname(target), { recursive: true });
    // junit's counts come first, and stdout carries one format at a time: those wait on disk.
    const spooled = name === "junit" || (target === undefined && stdoutTaken);
    if (target === undefined && !spooled) stdoutTaken = true;
    const spoolFile = path.join(spoolDir, `${name}.part`);
    const spool = spooled ? { file: spoolFile, stream: chunkedFile(spoolFile) } : undefined;
    const live = spool?.stream ?? (target ? chunkedFile(target) : toStdout);
    outputs.push({
      name,
      writer: reporter.stream({ color: color && name === "pretty" }),
      target,
      live,
      ...(spool ? { spool } : {}),
    });
  }

  const close = async (stream: NodeJS.WritableStream) => {
    if ("endChunks" in stream) return (stream as Chunked).endChunks();
    const file = stream as WriteStream;
    file.end();
    await once(file, "close");
  };
  return {
    collects: whole.length > 0,
    start: (run) => {
      for (const o of outputs) o.live.write(o.writer.start(run));
    },
    result: (result) => {
      for (const o of outputs) {
        const text = o.writer.result(result);
        if (text) o.live.write(text);
      }
    },
    drained: async () => {
      await Promise.all(outputs.map((o) => (o.live as Chunked).drained()));
    },
    finish: async (head, results) => {
      try {
        // What went to stdout as the run went ends first; what waited on disk follows it.
        for (const o of [...outputs].sort((a, b) => Number(!!a.spool) - Number(!!b.spool))) {
          const { before, after } = o.writer.end(head);
          if (!o.spool) {
            o.live.write(after);
            await close(o.live);
          } else {
            await close(o.spool.stream);
            const final = o.target ? createWriteStream(o.target) : io.stdout;
            if (!o.target) input.beforeStdout?.();
            if (before) final.write(before);
            // Piped, not read whole: the spool of a million results stays on disk.
            await pipeline(createReadStream(o.spool.file), final, { end: false });
            final.write(after);
            if (o.target) await close(final);
          }
          if (o.target)
            io.stderr.write(
              `wrote ${o.name} report to ${shownTarget({ target: o.target, output, cwd: io.cwd })}\n`,
            );
        }
        if (whole.length > 0) {
          await writeReports({
            names: whole,
            report: { ...head, results },
            io,
            color,
            ...(output !== undefined ? { output, outputNames: names } : {}),
          });
        }
      } finally {
        await rm(spoolDir, { recursive: true, force: true });
      }
    },
  };
}
