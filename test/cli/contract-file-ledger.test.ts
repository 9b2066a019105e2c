// The ledger remembers the --contract-file an entry was installed with: every later command
// finds the contract without being told again, and a record moved or changed since is reported,
// and never used in its place.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_FILE_SENTENCES } from '../../src/node/status/status.js';
import { type Draft, record } from '../shell/records.js';
import {
  FOREIGN_CRLF,
  fileCli,
  files,
  type Home,
  home,
  readHooks,
  writeHooks,
} from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

const ID = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';

function writeRecord(path: string, edit?: (r: Draft) => void): void {
  writeFileSync(path, JSON.stringify(record(edit), null, 2));
}

const specOf = (spec: Home['spec']) => [
  '--executable',
  spec.executable,
  '--selector',
  spec.selector,
  '--shell',
  ID,
];

/** A hook file with our entry installed through the qualified contract of the record at `path`. */
async function installedWithRecord(): Promise<Home & { record: string }> {
  const where = home();
  writeHooks(where);
  const path = join(where.dir, 'record.json');
  writeRecord(path);
  const installed = await fileCli('install', where, ...specOf(where.spec), '--contract-file', path);
  expect(installed.exitCode, installed.stderr).toBe(0);
  return { ...where, record: path };
}

const statusOf = async (where: Home) => {
  const run = await fileCli('status', where);
  expect(run.exitCode, run.stderr).toBe(0);
  const parsed = JSON.parse(run.stdout);
  expectSchema('status-result', parsed);
  return parsed;
};

const ledgerRecord = (where: Home) =>
  JSON.parse(readFileSync(where.ledger, 'utf8')).files[where.hooks] as {
    contractFile: { path: string; id: string; sha256: string } | null;
  };

describe('a receipt made with --contract-file', () => {
  it('records the file, its contract id and the SHA-256 of its bytes (red: the ledger forgets where the contract came from)', async () => {
    const where = await installedWithRecord();
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(readFileSync(where.record)).digest('hex');
    expect(ledgerRecord(where).contractFile).toEqual({ path: where.record, id: ID, sha256 });
  });

  it('status finds the contract without --contract-file and reports the file found (red: status says register-contract)', async () => {
    const where = await installedWithRecord();
    const s = await statusOf(where);
    expect(s.contractFile).toEqual({ path: where.record, id: ID, state: 'found' });
    expect(s.owned.state).toBe('owned');
    expect(s.contract.evidence.version).toBe('3.40.1');
    expect(s.nextStep.code).toBe('none');
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain(`contract file: ${where.record} (contract ${ID}): found`);
  });

  it('remove works without --contract-file (red: remove refuses shell-unsupported)', async () => {
    const where = await installedWithRecord();
    const removed = await fileCli('remove', where);
    expect(removed.exitCode, removed.stdout).toBe(0);
    expect(readHooks(where)).not.toContain('cursor-event');
    // Kept through the removal, so a later install of the same shell finds it too.
    expect(ledgerRecord(where).contractFile?.path).toBe(where.record);
    const again = await fileCli('install', where, ...specOf(where.spec));
    expect(again.exitCode, again.stdout).toBe(0);
  });

  it('update works without --contract-file (red: update refuses the unknown shell)', async () => {
    const where = await installedWithRecord();
    const updated = await fileCli('update', where, ...specOf(where.otherSpec));
    expect(updated.exitCode, updated.stdout).toBe(0);
    expect(readHooks(where)).toContain(where.otherSpec.selector);
  });

  it('repair works without --contract-file (red: repair refuses the unknown shell)', async () => {
    const where = await installedWithRecord();
    writeHooks(where, FOREIGN_CRLF);
    const repaired = await fileCli('repair', where);
    expect(repaired.exitCode, repaired.stdout).toBe(0);
    expect(readHooks(where)).toContain(where.spec.selector);
  });

  it('disable then enable work without --contract-file (red: enable cannot render the kept receipt)', async () => {
    const where = await installedWithRecord();
    expect((await fileCli('disable', where)).exitCode).toBe(0);
    expect((await statusOf(where)).contractFile.state).toBe('found');
    const enabled = await fileCli('enable', where);
    expect(enabled.exitCode, enabled.stdout).toBe(0);
    expect((await statusOf(where)).nextStep.code).toBe('none');
  });
});

describe('doctor with the ledger of a receipt made with --contract-file', () => {
  it('finds our entry missing without --contract-file (red: doctor cannot render the receipt and says nothing of ours)', async () => {
    const where = await installedWithRecord();
    writeHooks(where, FOREIGN_CRLF);
    const run = await cli(['doctor', ...files(where), '--json']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).findings).toEqual([
      expect.objectContaining({ code: 'owned-missing', ours: true }),
    ]);
  });
});

describe('a recorded contract file moved or changed', () => {
  it('moved: status reports it missing and names register-contract with the new place to pass (red: a generic or no step)', async () => {
    const where = await installedWithRecord();
    const moved = join(where.dir, 'moved record.json');
    renameSync(where.record, moved);
    const s = await statusOf(where);
    expect(s.contractFile).toEqual({ path: where.record, id: ID, state: 'missing' });
    expect(s.nextStep).toEqual({
      code: 'register-contract',
      command: null,
      sentence: CONTRACT_FILE_SENTENCES.missing,
    });
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain('missing: not at the recorded path');
    // The remove that refused names the same way out; given the new place, it works and records it.
    const refused = await fileCli('remove', where);
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stdout).nextStep.sentence).toBe(CONTRACT_FILE_SENTENCES.missing);
    const removed = await fileCli('remove', where, '--contract-file', moved);
    expect(removed.exitCode, removed.stdout).toBe(0);
    expect(ledgerRecord(where).contractFile?.path).toBe(moved);
    expect((await statusOf(where)).contractFile.state).toBe('found');
  });

  it('changed: status reports it changed, and remove refuses rather than use the changed grammar (red: a changed record is trusted silently)', async () => {
    const where = await installedWithRecord();
    writeRecord(where.record, (r) => {
      r.evidence.date = '2026-12-04';
    });
    const before = readFileSync(where.hooks);
    const s = await statusOf(where);
    expect(s.contractFile).toEqual({ path: where.record, id: ID, state: 'changed' });
    expect(s.nextStep).toMatchObject({
      code: 'register-contract',
      sentence: CONTRACT_FILE_SENTENCES.changed,
    });
    expect(s.contract.evidence).toBeNull();
    const refused = await fileCli('remove', where);
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stdout).nextStep.code).toBe('register-contract');
    expect(readFileSync(where.hooks)).toEqual(before);
    // Passed on purpose, the new record is the user's choice, and the ledger learns it.
    const removed = await fileCli('remove', where, '--contract-file', where.record);
    expect(removed.exitCode, removed.stdout).toBe(0);
    expect((await statusOf(where)).contractFile.state).toBe('found');
  });
});
