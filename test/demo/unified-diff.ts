// A small line diff for the demo: LCS over whole lines, printed as a unified diff.

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

/**
 * The unified diff of `before` → `after` with `context` lines around each change, or '' when
 * they are equal. Lines keep their terminators when compared, so a changed line end is a
 * change; they are printed without them, as `diff -u` does.
 */
export function unifiedDiff(
  before: string,
  after: string,
  labels: { readonly from: string; readonly to: string },
  context = 3,
): string {
  if (before === after) return '';
  const ops = diffLines(splitLines(before), splitLines(after));
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  for (const [start, end] of hunkRanges(ops, context)) out.push(...formatHunk(ops, start, end));
  return `${out.join('\n')}\n`;
}

/** Lines with their `\n`; the last one may lack it. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..], row-major.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const lineA = a[i];
    const lineB = b[j];
    if (lineA !== undefined && lineA === lineB) {
      ops.push({ kind: ' ', line: lineA });
      i++;
      j++;
    } else if (
      lineA !== undefined &&
      (lineB === undefined || (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))
    ) {
      ops.push({ kind: '-', line: lineA });
      i++;
    } else if (lineB !== undefined) {
      ops.push({ kind: '+', line: lineB });
      j++;
    }
  }
  return ops;
}

/** [start, end) op ranges of each hunk; changes closer than 2 × context share one. */
function hunkRanges(ops: readonly Op[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  ops.forEach((op, index) => {
    if (op.kind === ' ') return;
    const start = Math.max(0, index - context);
    const end = Math.min(ops.length, index + 1 + context);
    const last = ranges.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = end;
    else ranges.push([start, end]);
  });
  return ranges;
}

function formatHunk(ops: readonly Op[], start: number, end: number): string[] {
  // 1-based line numbers of the hunk's first line on each side.
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops.slice(0, start)) {
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  const hunk = ops.slice(start, end);
  const oldCount = hunk.filter((op) => op.kind !== '+').length;
  const newCount = hunk.filter((op) => op.kind !== '-').length;
  const lines = [`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@`];
  for (const op of hunk) {
    lines.push(`${op.kind}${op.line.replace(/\r?\n$/, '')}`);
    if (!op.line.endsWith('\n')) lines.push('\\ No newline at end of file');
  }
  return lines;
}

/** `diff -u` ranges: `,count` omitted for one line; an empty side names the line before it. */
function range(line: number, count: number): string {
  if (count === 0) return `${line - 1},0`;
  return count === 1 ? `${line}` : `${line},${count}`;
}
