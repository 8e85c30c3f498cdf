// Preloaded into a CLI process under test (NODE_OPTIONS="--import <this
// file>", RECORD_LOADED_MODULES=<file>): writes the URL of every module the
// process loaded, one a line, to that file as the process exits, so a test
// can say which packages a command paid for.
import { writeFileSync } from "node:fs";
import { registerHooks } from "node:module";

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on("exit", () => writeFileSync(process.env.RECORD_LOADED_MODULES, [...loaded].join("\n")));
