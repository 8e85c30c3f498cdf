import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { formatCount, LIMITS } from "../config/limits";

// Every file the CLI reads (a suite, a document, a dataset, a Go report or
// RubricSet) is read whole only when it is a regular file within its ceiling:
// both are checked on the open handle first, so a FIFO, a device
// (/dev/urandom, /dev/zero), a directory or a huge file is refused without
// being read. The open does not block: without O_NONBLOCK, opening a FIFO
// waits for a writer, forever.

/** A suite file: its character ceiling, each character up to four UTF-8 bytes (the loader counts the characters). */
export const SUITE_FILE = { limit: 4 * LIMITS.suiteChars, what: "a suite file" };
/** A document under review: as large as a data file. */
export const DOCUMENT_FILE = { limit: LIMITS.datasetFileBytes, what: "a document file" };

function kindOf(stats: Awaited<ReturnType<FileHandle["stat"]>>): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSocket()) return "a socket";
  return "a special file";
}

type Bound = { limit: number; what: string };

export async function readBoundedFile(
  file: string,
  bound: Bound = { limit: LIMITS.datasetFileBytes, what: "a data file" },
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  return openBounded({ file, bound, read: (handle) => handle.readFile("utf8") });
}

/** The same checks for a file that is then streamed (a JSONL or CSV dataset): read nothing yet. */
export async function checkBoundedFile(
  file: string,
  bound: Bound,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  return openBounded({ file, bound, read: async () => "" });
}

async function openBounded(input: {
  file: string;
  bound: Bound;
  read: (handle: FileHandle) => Promise<string>;
}): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  const { file, bound } = input;
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message:
        code === "ENOENT"
          ? "file not found"
          : code === "ENXIO"
            ? "it is not a regular file (a socket or a device with nothing behind it): only regular files are read"
            : (error as Error).message,
    };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      return {
        ok: false,
        message: `it is ${kindOf(stats)}, not a regular file: only regular files are read`,
      };
    if (stats.size > bound.limit)
      return {
        ok: false,
        message: `the file is ${formatCount(stats.size)} bytes; ${bound.what} holds at most ${formatCount(bound.limit)}`,
      };
    return { ok: true, text: await input.read(handle) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    await handle.close();
  }
}
