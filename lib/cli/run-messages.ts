import { plural } from "../engine/results/format-score";
import type { ReportHead } from "../engine/trust/report-totals";
import { formatSaving } from "../report/savings-lines";
import type { CliIo } from "./cli-io";

// What a CLI run says on stderr as it ends, before its reports.

/** What batching and the judge cache saved, on stderr before the reports. */
export function saySavings(report: ReportHead, io: CliIo): void {
  const batched = report.summary.savings.batch;
  if (batched)
    io.stderr.write(
      `${plural(batched.calls, "judge call")} batched, saving ${formatSaving(batched.saved)} at Message Batches prices\n`,
    );
  if (report.summary.reused) {
    io.stderr.write(
      `Reused ${plural(report.summary.reused.calls, "judge verdict")} from the cache, saving ${formatSaving(report.summary.savings.judgeCache.saved)}\n`,
    );
  }
}

/** How to finish a stored run that Ctrl-C or a cancel stopped. */
export function sayStopped(input: {
  runId: string;
  io: CliIo;
  batched: boolean;
  stopped: "interrupted" | "cancelled" | undefined;
}): void {
  const { runId, io } = input;
  if (input.stopped === "interrupted") {
    io.stderr.write(
      input.batched
        ? `Interrupted: the message batches go on; \`rubric-studio resume ${runId}\` waits for them and pays nothing twice\n`
        : `Interrupted: \`rubric-studio resume ${runId}\` grades what Ctrl-C left in this same run (the calls already answered are not paid again)\n`,
    );
  } else if (input.stopped === "cancelled") {
    io.stderr.write(
      `Cancelled: \`rubric-studio resume ${runId}\` grades what the cancel left in this same run\n`,
    );
  }
}
