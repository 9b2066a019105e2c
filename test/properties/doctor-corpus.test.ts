// Issue 36: adviseHooks on every real-world hook file the project keeps (fixtures/documents,
// fixtures/layouts: shapes from public .cursor/hooks.json files; the editor-left files of
// issue 10). It never throws, every finding fits the schema, and the counts per code are pinned.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adviseHooks, type Finding } from '../../src/index.js';
import { expectSchema } from '../cli/schema-check.js';
import { REAL_WORLD_FILES } from './real-world-files.js';

const DIRS = ['documents', 'layouts'].map(
  (name) => new URL(`../../fixtures/${name}/`, import.meta.url),
);

const CORPUS: readonly (readonly [string, Uint8Array])[] = [
  ...DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => [name, new Uint8Array(readFileSync(new URL(name, dir)))] as const),
  ),
  ...REAL_WORLD_FILES.map(([label, text]) => [label, new TextEncoder().encode(text)] as const),
];

function counts(findings: readonly Finding[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const { code } of findings) found[code] = (found[code] ?? 0) + 1;
  return found;
}

describe('doctor on the real-world corpus', () => {
  it('reads the whole corpus (red: a fixture folder moved and goes unread)', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(20);
  });

  it('advises on every file without throwing, each finding in the schema (red: a real file crashes doctor)', () => {
    const all: Finding[] = [];
    for (const [, bytes] of CORPUS) {
      for (const source of ['user', 'project', 'claude-user'] as const) {
        const findings = adviseHooks(bytes, { source });
        expectSchema('doctor-result', {
          findings,
          sources: [],
          worst: null,
          voided: false,
          owned: 'none',
        });
        if (source === 'user') all.push(...findings);
      }
    }
    // The counts, pinned: a check that starts or stops firing on real files shows here.
    expect(counts(all)).toEqual({ 'not-json': 2, 'version-missing': 1 });
  });
});
