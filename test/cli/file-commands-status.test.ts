import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeLedger, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { text as bytesOf, pendingUpdate } from '../node/support.js';
import {
  fileCli,
  files,
  fingerprint,
  type Home,
  home,
  install,
  readHooks,
  result,
  writeHooks,
} from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli, SHELL } from './support.js';

interface Status {
  file: { state: string; reason: string | null };
  owned: { state: string; repairable: boolean; reason: string | null };
  ledger: {
    state: string;
    reason: string | null;
    record: LedgerRecord | null;
    generation: number;
    pending: string | null;
  };
  checkedSpec: { source: string } | null;
  hostPaths: { verified: boolean } | null;
  contract: { id: string; evidence: { client: string } | null } | null;
  nextStep: { code: string; sentence: string };
}

/** `status --json`, which exits 0, writes nothing on stderr and matches its schema. */
function status(outcome: CliOutcome): Status {
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  expect(outcome.stderr).toBe('');
  const parsed = JSON.parse(outcome.stdout) as Status;
  expectSchema('status-result', parsed);
  return parsed;
}

async function installed(): Promise<Home & { document: string }> {
  const where = home();
  writeHooks(where);
  result(await install(where), 0);
  return { ...where, document: readHooks(where) };
}

const OWNED = /\{ "type": "command", "command": "[^\r\n]+", "timeout": 5, "failClosed": false \}/;
const entryOf = (document: string) => document.match(OWNED)?.[0] ?? '';

describe('cursorhooks status', () => {
  it('says install for a fresh home and checks nothing (red: a new user gets a wrong next step)', async () => {
    const s = status(await fileCli('status', home()));
    expect(s).toMatchObject({
      file: { state: 'absent' },
      owned: { state: 'not-installed' },
      ledger: { state: 'absent', record: null, generation: 0, pending: null },
      checkedSpec: null,
      hostPaths: null,
      contract: null,
      nextStep: { code: 'install' },
    });
  });

  it('after install: owned, the receipted spec checked, the contract evidence shown (red: status misreads its own entry)', async () => {
    const s = status(await fileCli('status', await installed()));
    expect(s).toMatchObject({
      file: { state: 'valid' },
      owned: { state: 'owned' },
      ledger: { state: 'valid', generation: 1, pending: null },
      checkedSpec: { source: 'receipt' },
      hostPaths: { verified: true },
      contract: { id: SHELL, evidence: { client: expect.any(String) } },
      nextStep: { code: 'none' },
    });
  });

  it.each([
    [
      'a foreign edit elsewhere',
      (d: string) => d.replace('audit.sh', 'audit2.sh'),
      'remainder-drift',
      'refresh',
    ],
    [
      'the entry deleted alone',
      (d: string) => d.replace(`,\r\n\t\t\t${entryOf(d)}`, ''),
      'absent',
      'repair',
    ],
    [
      'the entry deleted with other edits',
      (d: string) => d.replace(`,\r\n\t\t\t${entryOf(d)}`, '').replace('audit.sh', 'x.sh'),
      'absent',
      'release',
    ],
    [
      'the timeout changed',
      (d: string) => d.replace('"timeout": 5', '"timeout": 9'),
      'modified',
      'release',
    ],
    [
      'the entry copied',
      (d: string) => d.replace(entryOf(d), `${entryOf(d)}, ${entryOf(d)}`),
      'duplicated',
      'release',
    ],
    [
      'the entry moved to another event',
      (d: string) =>
        d
          .replace(`,\r\n\t\t\t${entryOf(d)}`, '')
          .replace(
            '[{ "command": "./hooks/format.sh" }',
            `[{ "command": "./hooks/format.sh" }, ${entryOf(d)}`,
          ),
      'outside-stop',
      'release',
    ],
  ])(
    'reports %s as %s with next step %s, writing nothing (red: the user is misled, or status writes)',
    async (_, edit, state, next) => {
      const where = await installed();
      const edited = edit(where.document);
      expect(edited).not.toBe(where.document);
      writeFileSync(where.hooks, edited);
      const before = [fingerprint(where.hooks), fingerprint(where.ledger)];
      const s = status(await fileCli('status', where));
      expect(s.owned.state).toBe(state);
      expect(s.nextStep.code).toBe(next);
      expect([fingerprint(where.hooks), fingerprint(where.ledger)]).toEqual(before);
    },
  );

  it('reports a removal with its generation (red: a removed hook looks broken)', async () => {
    const where = await installed();
    result(await fileCli('remove', where), 0);
    const s = status(await fileCli('status', where));
    expect(s.owned.state).toBe('removed');
    expect(s.ledger.record?.removed?.generation).toBe(2);
    expect(s.nextStep.code).toBe('install');
  });

  it('reports an unreadable hook file and an unknown ledger as refused with their reasons (red: status fails instead of reporting)', async () => {
    const where = home();
    writeFileSync(where.hooks, '{"version": 1, "hooks": {"stop": []}, "version": 1}');
    expect(status(await fileCli('status', where))).toMatchObject({
      file: { state: 'refused', reason: 'json-duplicate-key' },
      owned: { state: 'unknown' },
      nextStep: { code: 'fix-file' },
    });
    writeFileSync(where.ledger, '{"cursorhooksLedger": 99, "files": {}}');
    expect(status(await fileCli('status', where))).toMatchObject({
      ledger: { state: 'refused', reason: 'ledger-version-unsupported' },
      nextStep: { code: 'fix-ledger' },
    });
  });

  it('reports a pending write and how the next run settles it (red: an interrupted transaction is hidden)', async () => {
    const where = await installed();
    const realPath = realpathSync(where.hooks);
    const record = status(await fileCli('status', where)).ledger.record as LedgerRecord;
    const { record: pending } = pendingUpdate(record, bytesOf(where.document), where.otherSpec);
    writeFileSync(where.ledger, encodeLedger(new Map([[realPath, pending]])));
    const s = status(await fileCli('status', where));
    expect(s.ledger).toMatchObject({
      pending: 'back',
      record: { pending: { operation: 'update' } },
    });
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain('pending update write: the next run settles it back');
  });

  it('checks a given spec instead of the receipted one, and names an unregistered shell (red: status checks the wrong paths)', async () => {
    const where = await installed();
    const missing = { executable: join(where.dir, 'nope'), selector: where.spec.selector };
    const s = status(
      await fileCli(
        'status',
        where,
        '--executable',
        missing.executable,
        '--selector',
        missing.selector,
        '--shell',
        'cursor-bogus',
      ),
    );
    expect(s.checkedSpec).toMatchObject({ source: 'given' });
    expect(s.hostPaths?.verified).toBe(false);
    expect(s.contract).toEqual({ id: 'cursor-bogus', evidence: null });
  });

  it('prints a readable report without --json (red: the text report drops a section)', async () => {
    const where = await installed();
    const outcome = await cli(['status', ...files(where)]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.split('\n')).toEqual([
      `hooks file: ${where.hooks}`,
      '  file: valid',
      '  owned entry: owned',
      `ledger: ${where.ledger}: valid`,
      `  generation 1; receipt for shell ${SHELL}`,
      '  no pending write',
      `checked spec (receipted): ${where.spec.executable} | ${where.spec.selector}`,
      expect.stringMatching(/^host path checks: all \d+ passed$/),
      expect.stringMatching(new RegExp(`^contract: ${SHELL}: qualified on `)),
      'next step: none: nothing to do: the owned entry is in place',
      '',
    ]);
    expect(readFileSync(where.ledger, 'utf8')).toContain('"generation": 1');
  });
});
