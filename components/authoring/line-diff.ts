// A unified line diff for the versions panel: longest common subsequence over
// lines (after trimming the common head and tail, which is most of a suite
// between two saves), then hunks with a few lines of context.

export type DiffLine =
  | { kind: "same"; text: string; oldLine: number; newLine: number }
  | { kind: "del"; text: string; oldLine: number }
  | { kind: "add"; text: string; newLine: number };

export type DiffRow = DiffLine | { kind: "gap"; hidden: number };

/** Beyond this many DP cells the middle is shown as replaced whole (still correct, just coarse). */
const MAX_CELLS = 16_000_000;

export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++)
    out.push({ kind: "same", text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  out.push(...diffMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail), head));
  for (let k = tail; k > 0; k--) {
    out.push({
      kind: "same",
      text: a[a.length - k]!,
      oldLine: a.length - k + 1,
      newLine: b.length - k + 1,
    });
  }
  return out;
}

function diffMiddle(a: string[], b: string[], offset: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const out: DiffLine[] = [];
  if (n * m > MAX_CELLS) {
    a.forEach((text, i) => out.push({ kind: "del", text, oldLine: offset + i + 1 }));
    b.forEach((text, j) => out.push({ kind: "add", text, newLine: offset + j + 1 }));
    return out;
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], flattened.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]!, oldLine: offset + i + 1, newLine: offset + j + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) {
      // On a tie, delete first: a changed line reads as "- old" then "+ new".
      out.push({ kind: "del", text: a[i]!, oldLine: offset + i + 1 });
      i++;
    } else {
      out.push({ kind: "add", text: b[j]!, newLine: offset + j + 1 });
      j++;
    }
  }
  return out;
}

/** Keeps `context` unchanged lines around each change and folds the rest into gaps. */
export function withContext(lines: DiffLine[], context = 3): DiffRow[] {
  const near = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === "same") return;
    for (
      let k = Math.max(0, index - context);
      k <= Math.min(lines.length - 1, index + context);
      k++
    )
      near[k] = true;
  });
  const rows: DiffRow[] = [];
  let hidden = 0;
  lines.forEach((line, index) => {
    if (near[index]) {
      if (hidden > 0) rows.push({ kind: "gap", hidden });
      hidden = 0;
      rows.push(line);
    } else hidden++;
  });
  if (hidden > 0) rows.push({ kind: "gap", hidden });
  return rows;
}

/**
 * The lines of `after` (1-based, inclusive) an edit from `before` touched:
 * everything between the common head and the common tail. A pure deletion
 * touches the line that now stands where it was. Undefined when nothing changed.
 */
export function changedLineRange(
  before: string,
  after: string,
): { from: number; to: number } | undefined {
  if (before === after) return undefined;
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const from = Math.min(head + 1, b.length);
  return { from, to: Math.max(from, b.length - tail) };
}
