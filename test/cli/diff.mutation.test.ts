// The unified diff the file-level commands print, word for word: headers, /dev/null for a new
// file, three lines of context, and CRLF files shown as LF only when every line ends in CRLF.
// The module is imported afresh inside each test: its context width is a module-level constant.
import { describe, expect, it, vi } from 'vitest';

async function unifiedDiff(path: string, existed: boolean, before: string, after: string) {
  vi.resetModules();
  const module = await import('../../src/cli/file/diff.js');
  return module.unifiedDiff(path, existed, before, after);
}

const lines = (...texts: string[]) => texts.map((text) => `${text}\n`).join('');

describe('unifiedDiff', () => {
  // Red: equal texts diffed into headers with no hunk.
  it('is empty when nothing changes', async () => {
    expect(await unifiedDiff('/h', true, 'a\n', 'a\n')).toBe('');
  });

  // Red: a new file not diffed from /dev/null, or an existing one diffed from it.
  it('diffs a new file from /dev/null and an existing one from itself', async () => {
    expect(await unifiedDiff('/h', false, '', 'a\n')).toBe(
      '--- /dev/null\n+++ /h\n@@ -0,0 +1,1 @@\n+a\n',
    );
    expect(await unifiedDiff('/h', true, '', 'a\n')).toBe('--- /h\n+++ /h\n@@ -0,0 +1,1 @@\n+a\n');
  });

  // Red: the context width changed from three lines.
  it('keeps three lines of context around a change', async () => {
    const before = lines('1', '2', '3', '4', '5', '6', '7', '8', '9');
    const after = lines('1', '2', '3', '4', 'five', '6', '7', '8', '9');
    expect(await unifiedDiff('/h', true, before, after)).toBe(
      [
        '--- /h',
        '+++ /h',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+five',
        ' 6',
        ' 7',
        ' 8',
        '',
      ].join('\n'),
    );
  });

  // Red: CRLF files shown with carriage returns, or without the header saying so.
  it('shows files whose lines all end in CRLF as LF, and says so', async () => {
    expect(await unifiedDiff('/h', true, 'a\r\nb\r\n', 'a\r\nc\r\n')).toBe(
      [
        '--- /h\tCRLF line ends, shown as LF',
        '+++ /h\tCRLF line ends, shown as LF',
        '@@ -1,2 +1,2 @@',
        ' a',
        '-b',
        '+c',
        '',
      ].join('\n'),
    );
    // An empty side has no bare LF either.
    expect(await unifiedDiff('/h', false, '', 'a\r\n')).toBe(
      '--- /dev/null\tCRLF line ends, shown as LF\n+++ /h\tCRLF line ends, shown as LF\n@@ -0,0 +1,1 @@\n+a\n',
    );
  });

  // Red: a file with any bare LF (first line, later line, either side) diffed as CRLF; a file
  // with no line end at all called CRLF.
  it.each([
    ['a\r\nb\n', 'a\r\nc\r\n'],
    ['a\r\nb\r\n', 'a\nc\r\n'],
    ['\na\r\n', 'b\r\n'],
    ['a\r\n', '\nb\r\n'],
  ])('keeps the carriage returns of %j -> %j', async (before, after) => {
    const diff = await unifiedDiff('/h', true, before, after);
    expect(diff).not.toContain('CRLF line ends');
    expect(diff).toContain('\r');
  });

  // Red: texts with no CRLF at all (so every line "ends in CRLF" vacuously) given the header.
  it('gives texts with no line ends no CRLF header', async () => {
    const diff = await unifiedDiff('/h', true, 'a', 'b');
    expect(diff).toBe(
      '--- /h\n+++ /h\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
  });
});
