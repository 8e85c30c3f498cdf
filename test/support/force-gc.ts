import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A full garbage collection, now: what a busy server does at a moment no test chooses.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function forceGc(times = 3): Promise<void> {
  for (let i = 0; i < times; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
