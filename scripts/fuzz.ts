import { runFuzz } from "../test/config/fuzz/run-fuzz";

// `npm run fuzz [cases] [seed] [first]`: mutated suites through the loader and the
// plan step, each in a worker thread with a time limit, at full sizes
// (datasets and strings past the limits). Prints the figures; exits 1 on any
// crash, hang or unlocated error, with the case numbers to reproduce them.

const cases = Number(process.argv[2] ?? 10_000);
const seed = Number(process.argv[3] ?? 1);
const first = Number(process.argv[4] ?? 0);
// Full-size cases take a few seconds of CPU (the yaml parser on a 2 MiB file); the limit leaves room for a loaded machine.
const timeLimitMs = 30_000;
const started = Date.now();
const figures = await runFuzz({
  root: process.cwd(),
  cases,
  first,
  seed,
  timeLimitMs,
  workers: 2,
  full: true,
  onProgress: (done) => {
    if (done % 1000 === 0) process.stderr.write(`${done} / ${cases}\n`);
  },
});
const ms = (n: number) => `${n.toFixed(1)} ms`;
process.stdout.write(
  [
    `fuzz: ${figures.cases} cases (seed ${seed}, limit ${timeLimitMs} ms each) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `  valid ${figures.valid}, invalid (located errors) ${figures.invalid}`,
    `  crashes ${figures.crashes}, hangs ${figures.hangs}, unlocated errors ${figures.unlocated}`,
    `  per case: p50 ${ms(figures.ms.p50)}, p99 ${ms(figures.ms.p99)}, max ${ms(figures.ms.max)}`,
    `  slowest cases: ${figures.slowest.map(([n, t]) => `#${n} ${ms(t)}`).join(", ")}`,
    ...figures.failures
      .slice(0, 20)
      .map((f) => `  case #${f.case} ${f.outcome}: ${f.detail.split("\n")[0]}`),
    "",
  ].join("\n"),
);
process.exitCode = figures.failures.length > 0 ? 1 : 0;
