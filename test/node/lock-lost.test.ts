// A holder that lost its lock (stopped past its lease, then broken by a waiter that wrote) never
// renames over the waiter's write unnoticed: it confirms the lock right before the rename and
// right after it, and a write that lost the race is lock-lost, never done.
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { assertLockHeld, heldLockOf, withLock } from '../../src/node/lock/lock.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import type { FsSeam } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { hostFailure, isDataTemp, operate, strays, text, workspace, wrapSeam } from './support.js';

const OLD = '{"version":1,"hooks":{}}\n';
const OURS = '{"version":1,"hooks":{"stop":[]}}\n';
const THEIRS = '{"version":1,"hooks":{"theirs":[]}}\n';

/** What a waiter that broke the lock does: its own record in the lock, then its own write. */
function stealLock(path: string, write: boolean): void {
  writeFileSync(
    lockPathOf(path),
    JSON.stringify({ pid: process.ppid, hostname: hostname(), acquiredAt: 'now', nonce: 'waiter' }),
  );
  if (write) writeFileSync(path, THEIRS);
}

/**
 * The seam with the lock of `path` stolen, and the file written by the waiter, right after the
 * holder's compare (the first call after the compare's reads), or right after its rename.
 */
function stolenAt(path: string, when: 'before' | 'after'): FsSeam {
  let phase: 'writing' | 'temp-closed' | 'comparing' | 'stolen' = 'writing';
  const seam = wrapSeam((call, about) => {
    if (when === 'after') return;
    const ourTemp = about?.startsWith(`${path}.cursorhooks-`) && isDataTemp(about);
    if (phase === 'writing' && call === 'close' && ourTemp) phase = 'temp-closed';
    else if (phase === 'temp-closed' && call === 'open' && about === path) phase = 'comparing';
    else if (phase === 'comparing' && about !== path) {
      phase = 'stolen';
      stealLock(path, true);
    }
  });
  if (when === 'before') return seam;
  return {
    ...seam,
    rename: async (from, to) => {
      await seam.rename(from, to);
      if (to === path) stealLock(path, false);
    },
  };
}

describe('a holder whose lock is taken while it writes', () => {
  // Red before: the holder renamed its older bytes over the waiter's write and reported success.
  it('never renames over the waiter`s write when the lock is lost before the rename', async () => {
    const where = workspace();
    writeFileSync(where.hooks, OLD);
    const expected = await readFileSnapshot(where.hooks);
    const err = await hostFailure(
      writeHookFile(where.hooks, expected, text(OURS), { fs: stolenAt(where.hooks, 'before') }),
    );
    expect(err).toMatchObject({ reason: 'lock-lost', path: lockPathOf(where.hooks), role: 'lock' });
    expect(readFileSync(where.hooks, 'utf8')).toBe(THEIRS);
    // The waiter's lock is theirs: ours left it alone; no temporary file stays.
    expect(strays(where.dir, 'hooks.json', 'hooks.json.cursorhooks-lock')).toEqual([]);
  });

  // Red before: a lock lost during the rename went unnoticed and the write said done.
  it('reports lock-lost, never done, when the lock is lost during the rename', async () => {
    const where = workspace();
    writeFileSync(where.hooks, OLD);
    const expected = await readFileSnapshot(where.hooks);
    const err = await hostFailure(
      writeHookFile(where.hooks, expected, text(OURS), { fs: stolenAt(where.hooks, 'after') }),
    );
    expect(err).toMatchObject({ reason: 'lock-lost' });
  });

  // Red before: the operation reported done for an entry the waiter's write then replaced.
  it('makes the operation fail lock-lost, not done', async () => {
    const where = workspace();
    writeFileSync(where.hooks, OLD);
    const outcome = await operate(where, Operation.Install, {
      fs: stolenAt(where.hooks, 'before'),
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.reason).toBe('lock-lost');
    expect(readFileSync(where.hooks, 'utf8')).toBe(THEIRS);
  });
});

describe('assertLockHeld', () => {
  // Red if the confirmation trusted the name: a link to our own record, or another nonce, passed.
  it('passes only for our own record, a regular file at the lock name itself', async () => {
    const where = workspace();
    await withLock(where.hooks, async () => {
      const owner = heldLockOf(where.hooks);
      if (owner === undefined) throw new Error('the call chain holds the lock');
      await assertLockHeld(
        where.hooks,
        owner,
        wrapSeam(() => undefined),
      );
      const lost = await hostFailure(
        assertLockHeld(
          where.hooks,
          { ...owner, nonce: 'other' },
          wrapSeam(() => undefined),
        ),
      );
      expect(lost).toMatchObject({ reason: 'lock-lost', path: lockPathOf(where.hooks) });
    });
    expect(heldLockOf(where.hooks)).toBeUndefined();
  });
});
