// The unified diff of what was (or would be) written, made with the `diff` package. Only its
// patch module is imported, and only when there is something to diff: start-up pays for none
// of the rest, and `status` and no-ops load nothing of it.

const CONTEXT = 3;

/**
 * `--- PATH` / `+++ PATH` and hunks with three lines of context; '' when nothing changes. A file
 * that did not exist diffs from /dev/null. Files whose lines all end in CRLF are diffed as LF
 * and the headers say so, so no carriage return lands in a terminal or in JSON.
 */
export async function unifiedDiff(
  path: string,
  existed: boolean,
  before: string,
  after: string,
): Promise<string> {
  if (before === after) return '';
  const { createTwoFilesPatch, FILE_HEADERS_ONLY } = await import('diff/lib/patch/create.js');
  const crlf = (before + after).includes('\r\n') && allCRLF(before) && allCRLF(after);
  const header = crlf ? 'CRLF line ends, shown as LF' : undefined;
  const [from, to] = crlf ? [toLF(before), toLF(after)] : [before, after];
  return createTwoFilesPatch(existed ? path : '/dev/null', path, from, to, header, header, {
    context: CONTEXT,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** No line ends in a bare LF. */
function allCRLF(text: string): boolean {
  return !/(^|[^\r])\n/.test(text);
}

function toLF(text: string): string {
  return text.replaceAll('\r\n', '\n');
}
