// runOperation's `contractFile`: the qualification record the receipt's contract came from is
// committed with the write it was used for, kept by every later run that names none, and never
// recorded for a receipt of another shell.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { disableHook, enableHook } from '../../src/node/toggle.js';
import { SHELL } from '../planner/support.js';
import { allChecksPassed, operate, recordOf, workspace } from './support.js';

const RECORD = { path: '/records/cursor.json', id: SHELL, sha256: 'b'.repeat(64) };
const MOVED = { ...RECORD, path: '/moved/cursor.json' };
const OTHER = { path: '/records/other.json', id: 'other-shell', sha256: 'c'.repeat(64) };

describe('runOperation records the contract file', () => {
  it('commits it with the install that used it (red: the option is ignored and later commands must be told again)', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install, { contractFile: RECORD })).status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(RECORD);
  });

  it("never records one whose id is not the receipt's shell (red: another shell's record is kept as this receipt's)", async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install, { contractFile: OTHER })).status).toBe('done');
    expect((await recordOf(where)).contractFile).toBeNull();
  });

  it('keeps it through update, remove, disable and enable that name none (red: a run without --contract-file forgets it)', async () => {
    const where = workspace();
    await operate(where, Operation.Install, { contractFile: RECORD });
    const update = await operate(where, Operation.Update, {
      spec: { executable: '/opt/agent/bin/other', selector: '/home/u/other.json' },
    });
    expect(update.status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(RECORD);
    const options = {
      hooksFile: where.hooks,
      ledger: where.ledger,
      checkHostPaths: allChecksPassed,
    };
    expect((await disableHook(options)).status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(RECORD);
    expect((await enableHook(options)).status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(RECORD);
    expect((await operate(where, Operation.Remove, { spec: null })).status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(RECORD);
  });

  it('records a moved record on an install that is otherwise a no-op (red: the new place cannot be recorded without a byte change)', async () => {
    const where = workspace();
    await operate(where, Operation.Install, { contractFile: RECORD });
    const bytes = readFileSync(where.hooks);
    const again = await operate(where, Operation.Install, { contractFile: MOVED });
    expect(again.status).toBe('no-op');
    expect(readFileSync(where.hooks)).toEqual(bytes);
    expect((await recordOf(where)).contractFile).toEqual(MOVED);
    const generation = (await recordOf(where)).generation;
    // The same record again writes nothing.
    await operate(where, Operation.Install, { contractFile: MOVED });
    expect((await recordOf(where)).generation).toBe(generation);
  });

  it('records the one a remove was given for the receipt it removes (red: enable after a remove finds the old place)', async () => {
    const where = workspace();
    await operate(where, Operation.Install, { contractFile: RECORD });
    const removed = await operate(where, Operation.Remove, { spec: null, contractFile: MOVED });
    expect(removed.status).toBe('done');
    expect((await recordOf(where)).contractFile).toEqual(MOVED);
  });

  it.each([
    ['a relative path', { ...RECORD, path: 'records/cursor.json' }],
    ['a path with NUL', { ...RECORD, path: '/records/a\0b' }],
    ['an empty id', { ...RECORD, id: '' }],
    ['a digest that is not 64 lowercase hex digits', { ...RECORD, sha256: 'B'.repeat(64) }],
    ['an extra key', { ...RECORD, size: 1 }],
  ])(
    'refuses %s as contract-file-record-invalid with nothing written (red: a malformed record lands in the ledger, which then refuses every later run)',
    async (_, contractFile) => {
      const where = workspace();
      const outcome = await operate(where, Operation.Install, { contractFile });
      expect(outcome).toMatchObject({
        status: 'refused',
        error: { reason: 'contract-file-record-invalid' },
      });
      expect(() => readFileSync(where.ledger)).toThrow();
      expect(() => readFileSync(where.hooks)).toThrow();
    },
  );
});
