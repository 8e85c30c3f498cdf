// Imported first by every entry point (the CLI, `npm run dev`/`start`, the
// install step), before anything that needs a newer Node is loaded: on an
// older Node the rest fails late and quietly (Node 20 prints nothing for most
// commands, and the dashboard's renderer needs ArrayBuffer.prototype.detached).
// Written in syntax that any Node parses (no ?., ??, or top-level await), so
// that this line is what an old Node prints. Keep REQUIRED_NODE equal to
// package.json's engines (test/bin/require-node.test.ts checks it).
export var REQUIRED_NODE = "22.12";

var need = REQUIRED_NODE.split(".");
var have = process.versions.node.split(".");
var tooOld =
  Number(have[0]) < Number(need[0]) ||
  (Number(have[0]) === Number(need[0]) && Number(have[1]) < Number(need[1]));
if (tooOld) {
  process.stderr.write(
    "error: Rubric Studio needs Node.js " +
      REQUIRED_NODE +
      " or newer, and this is " +
      process.version +
      ": install Node 22 or 24 (without root: `npm install --prefix ~/node22 node@22`, then put ~/node22/node_modules/node/bin first on PATH; see README, Troubleshooting)\n",
  );
  process.exit(1);
}
