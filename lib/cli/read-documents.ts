import path from "node:path";
import type { ConfigIssue, SuiteConfig } from "../config/types";
import { DOCUMENT_FILE, readBoundedFile } from "./read-bounded-file";

// Documents under review named by file (`document: { file: prd.md }`) are read
// here, relative to the suite file, because lib/config does no I/O. The text
// becomes the eval's candidate. A missing file is an issue at the eval, like
// any other config problem, so `validate` reports it too.

export async function readDocuments(input: {
  suite: SuiteConfig;
  suitePath: string;
}): Promise<{ ok: true; value: SuiteConfig } | { ok: false; issues: ConfigIssue[] }> {
  const { suite, suitePath } = input;
  const issues: ConfigIssue[] = [];
  const evals = await Promise.all(
    suite.evals.map(async (evalConfig, i) => {
      const file = evalConfig.document?.file;
      if (file === undefined) return evalConfig;
      const read = await readBoundedFile(
        path.resolve(path.dirname(suitePath), file),
        DOCUMENT_FILE,
      );
      if (read.ok) return { ...evalConfig, response: read.text };
      issues.push({
        ...evalConfig.location,
        path: ["evals", i, "document", "file"],
        message: `cannot read the document "${file}" (relative to the suite file): ${read.message}`,
        severity: "error",
      });
      return evalConfig;
    }),
  );
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { ...suite, evals } };
}
