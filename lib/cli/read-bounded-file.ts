import { open } from "node:fs/promises";
import { formatCount, LIMITS } from "../config/limits";

// A data file (a dataset, a Go report) read whole only when it is within the
// ceiling: its size is checked on the open handle first, so a huge or
// hostile file is refused without being read.

export async function readBoundedFile(
  file: string,
  limit: number = LIMITS.datasetFileBytes,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    return {
      ok: false,
      message:
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "file not found"
          : (error as Error).message,
    };
  }
  try {
    const { size } = await handle.stat();
    if (size > limit)
      return {
        ok: false,
        message: `the file is ${formatCount(size)} bytes; a data file holds at most ${formatCount(limit)}`,
      };
    return { ok: true, text: await handle.readFile("utf8") };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    await handle.close();
  }
}
