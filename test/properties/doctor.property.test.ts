// Issue 36: doctor on hostile files. Every string a generated file holds (keys, event names,
// commands, matchers, any value, raw non-JSON text) carries the marker Zq9; doctor's text and
// JSON never hold it, and doctor changes no file, no mtime and no directory listing.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli, HOME_STUB_WORKS } from '../cli/support.js';
import { tempDir } from '../node/support.js';
import { fcRuns, propertyTimeout } from '../support/common.js';

const MARKER = 'Zq9';
const RUNS = fcRuns(40);

/** A string planted in the file: random text (any code points) around the marker. */
const planted = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ maxLength: 6 }))
  .map(([before, after]) => `${before}${MARKER}${after}`);

const scalar = fc.oneof(planted, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(planted, tie('value'), { maxKeys: 3 }),
  ),
}));

const FIELDS = [
  'command',
  'type',
  'timeout',
  'matcher',
  'loop_limit',
  'failClosed',
  'prompt',
  'hooks',
];
const anyField = fc.oneof(fc.constantFrom(...FIELDS), planted);

/** An entry, Cursor's or Claude's: known fields and planted ones, every value hostile. */
const entry = fc.oneof(
  fc.dictionary(anyField, fc.oneof(planted, value), { maxKeys: 5 }),
  fc.record({ type: fc.constant('command'), command: planted, matcher: planted }),
  fc.record({
    matcher: planted,
    hooks: fc.array(fc.record({ type: fc.constant('command'), command: planted }), {
      maxLength: 2,
    }),
  }),
  value,
);

const eventName = fc.oneof(fc.constantFrom('stop', 'sessionStart', 'Stop', 'PreToolUse'), planted);

const document = fc.record(
  {
    version: fc.oneof(fc.constant(1), value),
    hooks: fc.oneof(
      fc.dictionary(eventName, fc.oneof(fc.array(entry, { maxLength: 4 }), value), { maxKeys: 4 }),
      value,
    ),
    extra: fc.dictionary(planted, value, { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);

/** A file's text: a generated document, one cut short, one with a comment, or raw text. */
const fileText = fc.oneof(
  document.map((d) => JSON.stringify(d, null, 2)),
  fc.tuple(document, fc.nat()).map(([d, cut]) => {
    const text = JSON.stringify(d);
    return `${text.slice(0, cut % (text.length + 1))}"${MARKER}`;
  }),
  document.map((d) => `// ${MARKER}\n${JSON.stringify(d)}`),
  planted,
);

/** Every file and directory under `dirs`, with bytes and mtime: what a run must leave as it was. */
function snapshot(dirs: readonly string[]): Map<string, string> {
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const path = join(dir, name);
      const stats = statSync(path, { bigint: true });
      const bytes = stats.isFile() ? readFileSync(path).toString('base64') : 'dir';
      seen.set(relative('/', path), `${stats.mtimeNs} ${bytes}`);
    }
    seen.set(dir, `${statSync(dir, { bigint: true }).mtimeNs}`);
  }
  return seen;
}

function put(path: string, text: string | undefined): void {
  if (text === undefined) return;
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe.skipIf(!HOME_STUB_WORKS)('doctor on hostile files', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it(
    'never prints a byte of a planted string and changes no file, mtime or listing (red: a value of a file leaks, or doctor writes)',
    async () => {
      const optional = fc.option(fileText, { nil: undefined });
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            user: optional,
            project: optional,
            claudeUser: optional,
            claudeProject: optional,
            claudeLocal: optional,
          }),
          async (files) => {
            const home = tempDir();
            const workspace = tempDir();
            const hooks = join(home, '.cursor', 'hooks.json');
            put(hooks, files.user);
            put(join(workspace, '.cursor', 'hooks.json'), files.project);
            put(join(home, '.claude', 'settings.json'), files.claudeUser);
            put(join(workspace, '.claude', 'settings.json'), files.claudeProject);
            put(join(workspace, '.claude', 'settings.local.json'), files.claudeLocal);
            const before = snapshot([home, workspace]);
            const args = [
              'doctor',
              '--ledger',
              join(home, 'ledger.json'),
              '--workspace',
              workspace,
            ];
            vi.stubEnv('HOME', home);
            const outcomes = [await cli(args), await cli([...args, '--json'])];
            for (const outcome of outcomes) {
              expect([0, 1]).toContain(outcome.exitCode);
              expect(outcome.stderr).toBe('');
              expect(outcome.stdout).not.toContain(MARKER);
            }
            const report = JSON.parse(outcomes[1]?.stdout ?? '') as { voided: boolean };
            expect(outcomes[1]?.exitCode).toBe(report.voided ? 1 : 0);
            expect(snapshot([home, workspace])).toEqual(before);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS, 400),
  );
});
