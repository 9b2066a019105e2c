// release's edges the ways-out suite does not pin: what a failure reports (status, real path,
// generation, the ledger named), a pending write with no receipt to release, the seam and the
// lock timeout it is given.

import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { beginPending } from '../../src/node/ledger/fence.js';
import { encodeLedger, type LedgerRecord, readLedger } from '../../src/node/ledger/ledger.js';
import { release } from '../../src/node/ledger/release.js';
import { SPEC } from '../planner/support.js';
import { errno, operate, workspace, wrapSeam } from './support.js';

const EMPTY: LedgerRecord = {
  generation: 4,
  receipt: null,
  removed: null,
  released: null,
  pending: null,
  heartbeat: null,
  disabled: null,
  contractFile: null,
};

describe('release', () => {
  it('releases an installed receipt: done, the receipt, a new generation (red: a release reports nothing released)', async () => {
    const where = workspace();
    const installed = await operate(where, Operation.Install);
    const released = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(released).toEqual({
      status: 'done',
      hooksFile: where.hooks,
      realPath: where.hooks,
      released: [installed.receipt],
      generation: 2,
      error: undefined,
    });
  });

  it('clears a pending write that owns nothing as a no-op, keeping the generation (red: a roll-back counts as a release)', async () => {
    const where = workspace();
    const record = beginPending(EMPTY, Operation.Remove, null);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, record]])));
    const outcome = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(outcome).toMatchObject({ status: 'no-op', released: [], generation: 4 });
    expect((await readLedger(where.ledger)).records.get(where.hooks)).toEqual(EMPTY);
  });

  it('reports a refused ledger as failed, naming the ledger, with the real path and generation 0 (red: a failure looks like a no-op or names the hook file)', async () => {
    const where = workspace();
    const real = join(where.dir, 'real.json');
    symlinkSync(real, where.hooks);
    writeFileSync(where.ledger, 'not json');
    const outcome = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(outcome).toMatchObject({
      status: 'failed',
      hooksFile: where.hooks,
      realPath: real,
      released: [],
      generation: 0,
    });
    expect(outcome.error).toMatchObject({ reason: 'ledger-malformed' });
    expect(readFileSync(where.ledger, 'utf8')).toBe('not json');
  });

  // Before: the failure named the ledger, which release never got to.
  it('reports no real path when the hook file cannot even be resolved, and names the hook file (red: a stale real path, or the ledger blamed)', async () => {
    const where = workspace();
    const fs = wrapSeam((call) => {
      if (call === 'realpath' || call === 'lstat' || call === 'readlink') throw errno('EIO');
    });
    const outcome = await release({ hooksFile: where.hooks, ledger: where.ledger, fs });
    expect(outcome).toMatchObject({ status: 'failed', realPath: undefined, generation: 0 });
    expect(outcome.error).toMatchObject({
      reason: 'io-failure',
      role: 'hook-file',
      path: where.hooks,
    });
  });

  it('takes the ledger`s lock through the seam it is given, within the timeout it is given (red: the seam or the timeout is dropped)', async () => {
    const where = workspace();
    await operate(where, Operation.Install);
    const owner = { pid: process.ppid, hostname: hostname(), acquiredAt: 'x', nonce: 'n' };
    writeFileSync(`${where.ledger}.cursorhooks-lock`, JSON.stringify(owner));
    const links: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined) links.push(path);
    });
    const outcome = await release({
      hooksFile: where.hooks,
      ledger: where.ledger,
      fs,
      lockTimeoutMs: 30,
    });
    expect(outcome).toMatchObject({ status: 'failed', generation: 0 });
    expect(outcome.error?.reason).toBe('lock-timeout');
    expect(links.length).toBeGreaterThan(0);
    expect((await readLedger(where.ledger)).records.get(where.hooks)?.receipt?.spec).toEqual(SPEC);
  });

  it('throws a bug instead of reporting it as a failed release (red: a programming error dressed up as an I/O failure of the ledger)', async () => {
    const where = workspace();
    const bug = new Error('a host bug');
    const options = {
      hooksFile: where.hooks,
      ledger: where.ledger,
      get lockTimeoutMs(): number {
        throw bug;
      },
    };
    await expect(release(options)).rejects.toBe(bug);
  });
});
