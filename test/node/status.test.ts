import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation, plan } from '../../src/index.js';
import { beginPending, decidePending } from '../../src/node/ledger/fence.js';
import { encodeLedger, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import { readStatus } from '../../src/node/status/status.js';
import { OTHER_SPEC } from '../planner/support.js';
import { operate, pendingUpdate, text, workspace } from './support.js';

type Where = ReturnType<typeof workspace>;

const status = (where: Where) => readStatus({ hooksFile: where.hooks, ledger: where.ledger });

async function installed(): Promise<Where & { document: string }> {
  const where = workspace();
  writeFileSync(where.hooks, '{"version":1,"other":true}');
  await operate(where, Operation.Install);
  return { ...where, document: readFileSync(where.hooks, 'utf8') };
}

/** The document with the owned entry's JSON text replaced. */
function editEntry(document: string, edit: (entry: string) => string): string {
  const entry = document.match(/\{[^{}]*"command"[^{}]*\}/)?.[0] ?? '';
  return document.replace(entry, edit(entry));
}

describe('readStatus', () => {
  it('says install for a fresh home, or a new user gets no next step', async () => {
    const s = await status(workspace());
    expect(s.file.state).toBe('absent');
    expect(s.owned.state).toBe('not-installed');
    expect(s.ledger).toMatchObject({ state: 'absent', generation: 0 });
    expect(s.nextStep.code).toBe('install');
  });

  it('says owned and nothing to do after an install, or status misreads its own entry', async () => {
    const s = await status(await installed());
    expect(s).toMatchObject({ file: { state: 'valid' }, owned: { state: 'owned' } });
    expect(s.ledger.generation).toBe(1);
    expect(s.nextStep.code).toBe('none');
  });

  it.each([
    [
      'a foreign edit elsewhere',
      (d: string) => d.replace('"other":true', '"other":false'),
      'remainder-drift',
      'refresh',
    ],
    [
      'the entry deleted alone',
      (d: string) => editEntry(d, () => '').replace('[,', '['),
      'absent',
      'repair',
    ],
    [
      'the entry deleted with other edits',
      (d: string) => editEntry(d, () => '').replace('true', 'false'),
      'absent',
      'release',
    ],
    [
      'the timeout changed',
      (d: string) => editEntry(d, (e) => e.replace('"timeout":5', '"timeout":9')),
      'modified',
      'release',
    ],
    ['the entry copied', (d: string) => editEntry(d, (e) => `${e},${e}`), 'duplicated', 'release'],
  ])('reports %s as %s with next step %s, or the user is misled', async (_, edit, state, next) => {
    const where = await installed();
    writeFileSync(where.hooks, edit(where.document));
    const s = await status(where);
    expect(s.owned.state).toBe(state);
    expect(s.nextStep.code).toBe(next);
  });

  it('reports a removal and says install, or a removed hook looks broken', async () => {
    const where = await installed();
    await operate(where, Operation.Remove);
    const s = await status(where);
    expect(s.owned.state).toBe('removed');
    expect(s.ledger.record?.removed?.generation).toBe(2);
    expect(s.nextStep.code).toBe('install');
  });

  it('refuses a FIFO hook file without blocking, or status hangs', async () => {
    const where = workspace();
    execFileSync('mkfifo', [where.hooks]);
    const s = await status(where);
    expect(s.file).toMatchObject({ state: 'refused', reason: 'file-not-regular' });
    expect(s.nextStep.code).toBe('fix-file');
  });

  it('refuses a ledger of an unknown version and says fix-ledger, or a newer ledger is misread', async () => {
    const where = workspace();
    writeFileSync(where.ledger, '{"cursorhooksLedger":5,"files":{}}');
    const s = await status(where);
    expect(s.ledger).toMatchObject({ state: 'refused', reason: 'ledger-version-unsupported' });
    expect(s.nextStep.code).toBe('fix-ledger');
  });
});

describe('an interrupted update', () => {
  /** An installed file whose ledger records an Update to OTHER_SPEC as pending. */
  async function pendingUpdateFile(): Promise<
    Where & { document: string; record: LedgerRecord; after: string }
  > {
    const where = await installed();
    const installedRecord = (await status(where)).ledger.record as LedgerRecord;
    const { record, after } = pendingUpdate(installedRecord, text(where.document), OTHER_SPEC);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, record]])));
    return { ...where, record, after: new TextDecoder().decode(after) };
  }

  it('rolls forward on the new bytes and back on the old, or a crash is settled the wrong way', async () => {
    const where = await pendingUpdateFile();
    expect(decidePending(where.record, text(where.after))).toBe('forward');
    expect(decidePending(where.record, text(where.document))).toBe('back');
  });

  it('is unresolved when the entry matches neither, and every run refuses to guess, or a guess overwrites', async () => {
    const where = await pendingUpdateFile();
    const edited = editEntry(where.document, (e) => e.replace('"timeout":5', '"timeout":7'));
    writeFileSync(where.hooks, edited);
    const s = await status(where);
    expect(s.ledger.pending).toBe('unresolved');
    expect(s.nextStep.code).toBe('release');
    const ledgerBefore = readFileSync(where.ledger, 'utf8');
    const mtime = statSync(where.hooks).mtimeMs;
    const outcome = await operate(where, Operation.Update, { spec: OTHER_SPEC });
    expect(outcome.status).toBe('refused');
    expect(outcome.error?.reason).toBe('pending-unresolved');
    expect(readFileSync(where.hooks, 'utf8')).toBe(edited);
    expect(statSync(where.hooks).mtimeMs).toBe(mtime);
    expect(readFileSync(where.ledger, 'utf8')).toBe(ledgerBefore);
  });
});

describe('an interrupted remove', () => {
  it('settles forward whenever the entry is gone, back while it is intact, and is unresolved only for an edited entry, or a crashed remove wedges every command', async () => {
    const where = await installed();
    const record = (await status(where)).ledger.record as LedgerRecord;
    const receipt = record.receipt;
    if (receipt === null) throw new Error('installed without a receipt');
    const removal = plan({
      document: text(where.document),
      operation: Operation.Remove,
      previous: receipt,
    });
    const removed = new TextDecoder().decode(removal.desired);
    const pending: LedgerRecord = beginPending(record, Operation.Remove, null);
    expect(decidePending(pending, text(removed))).toBe('forward');
    // A foreign edit after the crash: the entry is still gone, so the removal happened.
    expect(decidePending(pending, text(removed.replace('true', 'false')))).toBe('forward');
    expect(decidePending(pending, text(where.document))).toBe('back');
    const edited = editEntry(where.document, (e) => e.replace('"timeout":5', '"timeout":7'));
    expect(decidePending(pending, text(edited))).toBe('unresolved');
  });
});
