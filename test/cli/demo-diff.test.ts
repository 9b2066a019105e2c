import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../demo/unified-diff.js';

const LABELS = { from: 'a/f', to: 'b/f' };
const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');

describe('demo unified diff', () => {
  it('prints nothing for equal texts (red: unchanged steps show a diff)', () => {
    expect(unifiedDiff('a\n', 'a\n', LABELS)).toBe('');
  });

  it('shows an insertion with three lines of context (red: hunk header or context is wrong)', () => {
    const before = lines('1', '2', '3', '4', '5', '6', '7', '8');
    const after = lines('1', '2', '3', '4', 'new', '5', '6', '7', '8');
    expect(unifiedDiff(before, after, LABELS)).toBe(
      '--- a/f\n+++ b/f\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n',
    );
  });

  it('splits far-apart changes into two hunks and merges near ones (red: hunks overlap or swallow lines)', () => {
    const before = lines(...Array.from({ length: 20 }, (_, i) => `${i + 1}`));
    const after = before.replace('2\n', 'two\n').replace('19\n', 'nineteen\n');
    expect(unifiedDiff(before, after, LABELS)).toBe(
      '--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n' +
        '@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n',
    );
  });

  it('marks a missing final newline and a deletion to empty (red: the last line or an empty side is misnumbered)', () => {
    expect(unifiedDiff('a\nb', '', LABELS)).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n',
    );
  });
});
