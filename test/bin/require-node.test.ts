import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { REQUIRED_NODE } from "../../bin/require-node.mjs";

// Every entry point says, in one line, which Node it needs and how to get it,
// and exits, when started on an older Node: the machine's own /usr/bin/node
// (Node 20 on Debian bookworm and on CI's machine) is the real thing.

const root = fileURLToPath(new URL("../..", import.meta.url));
const OLD_NODE = "/usr/bin/node";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      OLD_NODE,
      args,
      { cwd: root, timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

function versionOf(node: string): [number, number] | undefined {
  let text: string | undefined;
  try {
    text = existsSync(node) ? execFileSync(node, ["--version"], { encoding: "utf8" }) : undefined;
  } catch {
    text = undefined;
  }
  const match = /^v(\d+)\.(\d+)/.exec(text ?? "");
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

const [needMajor, needMinor] = REQUIRED_NODE.split(".").map(Number) as [number, number];
const old = versionOf(OLD_NODE);
const isOld = !!old && (old[0] < needMajor || (old[0] === needMajor && old[1] < needMinor));

describe("the Node check", () => {
  it("asks for what package.json's engines promise", () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${REQUIRED_NODE}`);
  });

  const expectRefusal = (result: { code: number | null; stdout: string; stderr: string }) => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/needs Node\.js 22\.12 or newer, and this is v\d+\.\d+\.\d+/);
    expect(lines[0]).toContain("npm install --prefix ~/node22 node@22");
  };

  it.runIf(isOld)("the CLI on an old Node says so in one line and exits 1", async () => {
    expectRefusal(
      await run(["bin/rubric-studio.mjs", "validate", "--config", "examples/suite.yaml"]),
    );
    expectRefusal(await run(["bin/rubric-studio.mjs", "--help"]));
  });

  it.runIf(isOld)(
    "npm run dev / npm start's entry on an old Node says so and exits 1",
    async () => {
      expectRefusal(await run(["--import", "tsx", "scripts/serve.ts", "start"]));
      expectRefusal(await run(["--import", "tsx", "scripts/serve.ts", "dev"]));
    },
  );

  it.runIf(isOld)("npm install's step on an old Node stops with the same line", async () => {
    expectRefusal(await run(["bin/require-node.mjs"]));
  });
});
