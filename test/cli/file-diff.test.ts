import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/cli/file/diff.js';

const lines = (eol: string, ...items: string[]) => items.map((item) => `${item}${eol}`).join('');

describe('the unified diff of the file-level commands', () => {
  it('is empty for equal texts (red: unchanged files show a diff)', async () => {
    expect(await unifiedDiff('f', true, 'a\n', 'a\n')).toBe('');
  });

  it('shows an insertion with three lines of context (red: hunk header or context is wrong)', async () => {
    const before = lines('\n', '1', '2', '3', '4', '5', '6', '7', '8');
    const after = lines('\n', '1', '2', '3', '4', 'new', '5', '6', '7', '8');
    expect(await unifiedDiff('f', true, before, after)).toBe(
      '--- f\n+++ f\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n',
    );
  });

  it('diffs a CRLF file as LF and says so in the headers (red: carriage returns land in the output)', async () => {
    const before = lines('\r\n', '{', '\t"a": 1', '}');
    const after = lines('\r\n', '{', '\t"a": 1,', '\t"b": 2', '}');
    expect(await unifiedDiff('f', true, before, after)).toBe(
      '--- f\tCRLF line ends, shown as LF\n+++ f\tCRLF line ends, shown as LF\n' +
        '@@ -1,3 +1,4 @@\n {\n-\t"a": 1\n+\t"a": 1,\n+\t"b": 2\n }\n',
    );
  });

  it('keeps mixed line ends as they are, so a changed line end stays visible (red: a CRLF to LF change is hidden)', async () => {
    const diff = await unifiedDiff('f', true, 'a\r\nb\n', 'a\nb\n');
    expect(diff).not.toContain('CRLF');
    expect(diff).toContain('-a\r\n+a\n');
  });

  it('diffs a created file from /dev/null and marks a missing final newline (red: a new file is mislabelled)', async () => {
    expect(await unifiedDiff('f', false, '', '{}')).toBe(
      '--- /dev/null\n+++ f\n@@ -0,0 +1,1 @@\n+{}\n\\ No newline at end of file\n',
    );
  });
});
