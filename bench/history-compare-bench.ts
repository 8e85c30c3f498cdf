import { spawnSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { seedLaterRun } from "./seed-big-run";

// `npm run bench:store -- --big-run N --compare [--cli DIR]...`: the History page's comparison of
// two runs of N results each (issue 20), timed in a process of its own per checkout (`--cli`,
// repeatable: /work/main beside `.`, in one run), as the dashboard's server does it: the two runs
// compared (`compareRuns`) and the comparison's table rendered to HTML (RunComparison), with that
// process's peak RSS. The later run is the seeded one copied in SQL, a result in 20 changed
// (status flipped, deferred or its score moved): what the page lists first.

const CHILD = `
import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createPrismaClient } from "./lib/store/connection";
import { createRunViews } from "./lib/store/run-views";
import { RunComparison } from "./components/results/run-comparison";

const [url, baseRunId, headRunId, tries] = process.argv.slice(2);
const prisma = createPrismaClient(url, { max: 4 });
const ms = [];
let line = "";
for (let i = 0; i < Number(tries); i++) {
  const started = performance.now();
  const comparison = await createRunViews(prisma).compareRuns({ baseRunId, headRunId, maxDrop: 0.05 });
  const compared = performance.now();
  const html = renderToStaticMarkup(createElement(RunComparison, { comparison, headRunId }));
  ms.push([compared - started, performance.now() - compared]);
  const c = comparison;
  line = \`\${c.deltas.length} rows, \${(html.length / 1e6).toFixed(1)} MB of HTML; \${c.newlyFailing} newly failing, \${c.newlyPassing} newly passing, \${c.regressions} regressed, \${c.unmatched} not in the earlier run\`;
}
await prisma.$disconnect();
ms.sort((a, b) => a[0] + a[1] - b[0] - b[1]);
const [sql, render] = ms[Math.floor(ms.length / 2)];
// VmHWM: this process image's own peak (maxRSS would count the parent's pages at the fork).
const hwm = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
console.log(JSON.stringify({ sql, render, line, rss: Number(hwm[1]) / 1024 }));
`;

// The components' CSS modules, read as class names of their own key (no CSS in a Node process), and
// next/link as the plain link it renders (Node's ESM loader does not resolve `next/link`).
const cssModules: esbuild.Plugin = {
  name: "css-modules",
  setup(build) {
    build.onResolve({ filter: /^next\/link$/ }, () => ({ path: "link", namespace: "css" }));
    build.onLoad({ filter: /^link$/, namespace: "css" }, () => ({
      contents: `import { createElement } from "react";
        export default ({ href, className, children }) => createElement("a", { href, className }, children);`,
      loader: "js",
      resolveDir: process.cwd(),
    }));
    build.onResolve({ filter: /\.module\.css$/ }, (a) => ({ path: a.path, namespace: "css" }));
    build.onLoad({ filter: /\.css$/, namespace: "css" }, () => ({
      contents: "export default new Proxy({}, { get: (_, key) => String(key) });",
      loader: "js",
    }));
  },
};

/** The comparison code of `root` (a checkout), bundled beside this one's node_modules. */
async function bundleFor(root: string, index: number): Promise<string> {
  const dir = path.resolve(".bench/history");
  await mkdir(dir, { recursive: true });
  const outfile = path.join(dir, `compare-${index}.mjs`);
  await esbuild.build({
    stdin: { contents: CHILD, resolveDir: root, loader: "tsx", sourcefile: "compare.tsx" },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    jsx: "automatic",
    tsconfig: path.join(root, "tsconfig.json"),
    outfile,
    logLevel: "warning",
    plugins: [cssModules],
  });
  return outfile;
}

/** Each checkout's comparison of the seeded run and a later copy, in a process of its own. */
export async function historyCompareBench(input: {
  url: string;
  baseRunId: string;
  results: number;
  roots: string[];
}): Promise<void> {
  const seeding = performance.now();
  const headRunId = await seedLaterRun(input.url, input.baseRunId);
  console.log(
    `History comparison, two runs of ${input.results.toLocaleString("en-US")} results (the later one seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s):`,
  );
  const tries = input.results > 200_000 ? 1 : 3;
  const roots = input.roots.length ? input.roots : [process.cwd()];
  for (const [i, root] of roots.entries()) {
    const bundle = await bundleFor(root, i);
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [bundle, input.url, input.baseRunId, headRunId, String(tries)],
      {
        encoding: "utf8",
        maxBuffer: 1 << 24,
      },
    );
    const wall = (performance.now() - started) / 1000;
    const out = child.stdout.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || !out.startsWith("{")) {
      const why =
        child.stderr.match(/heap out of memory|Error[^\n]*/)?.[0] ?? `exit ${child.status}`;
      console.log(`  ${root}: failed after ${wall.toFixed(0)} s: ${why}`);
      continue;
    }
    const r = JSON.parse(out) as { sql: number; render: number; line: string; rss: number };
    console.log(
      `  ${root}: compared in ${r.sql.toFixed(0)} ms, rendered in ${r.render.toFixed(0)} ms (p50 of ${tries}); peak RSS ${Math.round(r.rss)} MB; ${r.line}; load average ${loadavg()[0]!.toFixed(2)}`,
    );
  }
}
