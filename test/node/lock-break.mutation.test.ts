// Judging a holder and breaking a stale lock (src/node/lock/break.ts), called directly: the edges
// a waiter meets only when a file changes between two of its calls, which the behaviour suites
// cannot time: a record gone between its lstat and its read, a file state that vanished, a break
// file someone else holds, the ceiling and the lease reached exactly.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  breakStale,
  judge,
  judgeStaging,
  Leases,
  removeDeadBreakers,
} from '../../src/node/lock/break.js';
import type { Claim } from '../../src/node/lock/claim.js';
import type { LockOwner } from '../../src/node/lock/lock-record.js';
import { MAY_BE_ALIVE_CEILING_MS } from '../../src/node/lock/process-identity.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { errno, hostFailure, strays, tempDir, wrapSeam } from './support.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

/** A holder provably dead: a pid gone on this host. */
const dead = (): LockOwner => ({
  pid: deadPid(),
  hostname: hostname(),
  acquiredAt: '2026-01-01T00:00:00Z',
  nonce: 'dead',
});
/** A holder that may be alive: our parent, without the identity that would prove it. */
const maybeAlive = (): LockOwner => ({ ...dead(), pid: process.ppid, nonce: 'maybe' });

/** `owner`'s record at `path`, with its mtime set to a whole second (so `mtimeMs` is exact). */
function plant(path: string, owner: LockOwner, at = new Date('2026-01-01T00:00:00Z')): number {
  writeFileSync(path, `${JSON.stringify(owner)}\n`);
  utimesSync(path, at, at);
  return statSync(path).mtimeMs;
}

/** A lock path in a fresh directory, and our claim staged beside it. */
function setting(): { dir: string; lock: string; claim: Claim } {
  const dir = tempDir();
  const owner: LockOwner = { ...dead(), pid: process.pid, nonce: 'ours' };
  const staging = join(dir, 'hooks.json.cursorhooks-lock-1-0123456789ab.tmp');
  writeFileSync(staging, `${JSON.stringify(owner)}\n`);
  return {
    dir,
    lock: join(dir, 'hooks.json.cursorhooks-lock'),
    claim: { realPath: join(dir, 'hooks.json'), owner, staging },
  };
}

describe('Leases', () => {
  it('expires a state unchanged for exactly a lease (red: a lease must be overrun to expire)', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const leases = new Leases(50);
    expect(leases.expired('p', 's')).toBe(false);
    now.mockReturnValue(1_049);
    expect(leases.expired('p', 's')).toBe(false);
    now.mockReturnValue(1_050);
    expect(leases.expired('p', 's')).toBe(true);
  });
});

describe('judge', () => {
  it('leaves a record whose file is gone by the time it is examined (red: a vanished lock is judged on no file state, or the lookup throws)', async () => {
    const { lock } = setting();
    expect(await judge(lock, dead(), new Leases(0), nodeFs)).toBeUndefined();
  });

  it('fails with the errno when the file cannot be examined (red: EACCES is taken for a vanished lock)', async () => {
    const { lock } = setting();
    plant(lock, dead());
    const fs = wrapSeam((call) => {
      if (call === 'lstat') throw errno('EACCES');
    });
    const err = await hostFailure(judge(lock, dead(), new Leases(0), fs));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('judges a holder that may be alive stale once its record is exactly the ceiling old, by the ceiling and not a lease (red: a stopped holder keeps its lock forever, or a lease decides)', async () => {
    const { lock } = setting();
    const owner = maybeAlive();
    const mtime = plant(lock, owner);
    const seen = `${owner.nonce}:${statSync(lock).ino}:${mtime}`;
    const now = vi.spyOn(Date, 'now').mockReturnValue(mtime + MAY_BE_ALIVE_CEILING_MS - 1);
    // A lease of zero would expire at its second look: the ceiling alone must decide.
    const leases = new Leases(0);
    expect(await judge(lock, owner, leases, nodeFs)).toBeUndefined();
    expect(await judge(lock, owner, leases, nodeFs)).toBeUndefined();
    now.mockReturnValue(mtime + MAY_BE_ALIVE_CEILING_MS);
    expect(await judge(lock, owner, new Leases(60_000), nodeFs)).toEqual({ owner, seen });
  });
});

describe('judgeStaging', () => {
  it('keeps a staging file gone before it is examined (red: a vanished staging file throws)', async () => {
    const { dir } = setting();
    expect(await judgeStaging(join(dir, 'missing.tmp'), nodeFs)).toBe('kept');
  });

  it('calls a staging file exactly the ceiling old stale, whoever wrote it (red: a stuck waiter`s file must be overrun to go)', async () => {
    const { dir } = setting();
    const path = join(dir, 'staging.tmp');
    const mtime = plant(path, maybeAlive());
    const now = vi.spyOn(Date, 'now').mockReturnValue(mtime + MAY_BE_ALIVE_CEILING_MS - 1);
    expect(await judgeStaging(path, nodeFs)).toBe('kept');
    now.mockReturnValue(mtime + MAY_BE_ALIVE_CEILING_MS);
    expect(await judgeStaging(path, nodeFs)).toBe('stale');
  });

  it('calls a fresh staging file of a dead waiter stale and of a living one kept (red: a dead waiter`s file is never swept)', async () => {
    const { dir } = setting();
    const path = join(dir, 'staging.tmp');
    plant(path, dead(), new Date());
    expect(await judgeStaging(path, nodeFs)).toBe('stale');
    plant(path, maybeAlive(), new Date());
    expect(await judgeStaging(path, nodeFs)).toBe('kept');
  });

  it('calls a staging file whose record cannot be read unreadable (red: a read failure throws out of the sweep)', async () => {
    const { dir } = setting();
    const path = join(dir, 'staging.tmp');
    plant(path, dead(), new Date());
    const fs = wrapSeam((call) => {
      if (call === 'open') throw errno('EIO');
    });
    expect(await judgeStaging(path, fs)).toBe('unreadable');
  });

  it('keeps a staging file removed between its lstat and its read (red: a waiter that just finished is called unreadable)', async () => {
    const { dir } = setting();
    const path = join(dir, 'staging.tmp');
    plant(path, dead(), new Date());
    let lstats = 0;
    const fs = wrapSeam((call) => {
      if (call === 'lstat' && ++lstats === 2) unlinkSync(path);
    });
    expect(await judgeStaging(path, fs)).toBe('kept');
    expect(lstats).toBe(2);
  });
});

describe('breakStale', () => {
  it('reports nothing removed when a living breaker holds the break file (red: the caller takes the lock as freed)', async () => {
    const { lock, claim } = setting();
    plant(lock, dead());
    plant(`${lock}.break`, maybeAlive(), new Date());
    const stale = { owner: dead(), seen: 'any' };
    expect(await breakStale(lock, stale, claim, new Leases(60_000), nodeFs)).toBe(false);
    expect(existsSync(lock)).toBe(true);
    expect(existsSync(`${lock}.break`)).toBe(true);
  });

  it('reports nothing removed when the record changed since it was judged (red: the caller takes the lock as freed)', async () => {
    const { dir, lock, claim } = setting();
    const owner = dead();
    plant(lock, owner);
    const stale = { owner, seen: 'an older state' };
    expect(await breakStale(lock, stale, claim, new Leases(0), nodeFs)).toBe(false);
    expect(existsSync(lock)).toBe(true);
    expect(strays(dir).sort()).toEqual([
      'hooks.json.cursorhooks-lock',
      'hooks.json.cursorhooks-lock-1-0123456789ab.tmp',
    ]);
  });

  it('leaves a record whose file state vanished while it was read under the break file (red: the compare throws on a missing state)', async () => {
    const { lock, claim } = setting();
    const owner = dead();
    const mtime = plant(lock, owner);
    const stale = { owner, seen: `${owner.nonce}:${statSync(lock).ino}:${mtime}` };
    let lstats = 0;
    // The record reads (its first lstat), then its state is looked up and found gone.
    const fs = wrapSeam((call, path) => {
      if (call === 'lstat' && path === lock && ++lstats === 2) throw errno('ENOENT');
    });
    expect(await breakStale(lock, stale, claim, new Leases(0), fs)).toBe(false);
    expect(lstats).toBe(2);
    expect(existsSync(lock)).toBe(true);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });
});

describe('removeDeadBreakers', () => {
  it('passes over a break file it cannot read (red: taking the lock fails on a leftover it could not read)', async () => {
    const { lock } = setting();
    plant(`${lock}.break`, dead());
    const fs = wrapSeam((call) => {
      if (call === 'open') throw errno('EIO');
    });
    await expect(removeDeadBreakers(lock, fs)).resolves.toBeUndefined();
    expect(existsSync(`${lock}.break`)).toBe(true);
  });
});
