// Room lock/: the inter-process lock beside a target, its record, its heartbeat, and who its holder is.
// An exclusive inter-process lock beside a real target: `<real>.cursorhooks-lock`, holding
// {pid, hostname, acquiredAt, nonce} and, where Linux shows them, the holder's boot id, pid
// namespace and start time. It excludes cooperating cursorhooks writers only; an editor that
// ignores it can still write the target (the compare-and-swap catches that).
// This file is the lock's API: take, hold, release, inspect. A holder is judged by proof where one
// exists (process-identity.ts). One that ran on this machine but cannot be told apart from another
// process (a pid that answers without /proc, a pid namespace we cannot see into) may be alive: it
// keeps its lock for hours, whether it is slow or stopped. Only one on another machine or boot is
// judged by a lease: a holder refreshes the lock file's mtime every REFRESH_MS (lease-beat.ts,
// held.ts), and a waiter that sees no change for a lease breaks it (break.ts).
// A holder confirms its lock is still its own right before and after each rename (assertLockHeld).
// A lock name holding anything but our record (lock-record.ts) is refused, never followed,
// waited for or removed. Without hard links there is no lock (claim.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { asHostError, HostIOError, type LockHolder, TargetMovedError } from '../errors.js';
import { lockPathOf, removeLeftovers, sideFileName } from '../side-files/leftovers.js';
import { trackSideFile } from '../side-files/side-file-registry.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { randomHex } from '../write/random.js';
import { resolveTarget } from '../write/read.js';
import { retry } from '../write/retry.js';
import { breakStale, judge, judgeStaging, Leases, removeDeadBreakers } from './break.js';
import { type Claim, ownerOrRefuse, releaseFile, take, unlinkGone, writeStaging } from './claim.js';
import { hold, livenessOf, unhold } from './held.js';
import { isOwner, type LockOwner, readOwner } from './lock-record.js';
import { selfIdentity } from './process-identity.js';

export { type LockOwner, readOwner };

export interface LockOptions {
  readonly fs?: FsSeam;
  /** How long to wait for a live holder before `lock-timeout`; default 10 s. */
  readonly timeoutMs?: number;
  /** How long a holder that cannot be probed may leave the lock unrefreshed; default 3 s. */
  readonly leaseMs?: number;
}

/** What `inspectLock` sees beside a file, without waiting or changing anything. */
export interface LockInspection {
  readonly path: string;
  /** `stale`: the holder is provably dead, and the next run recovers the lock. */
  readonly state: 'free' | 'held' | 'stale';
  readonly holder: LockHolder | undefined;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_LEASE_MS = 3_000;
/** How often a retargeted symlink is followed to a new lock before `file-changed`. */
const MAX_RELOCKS = 3;

/** Runs `body` holding the lock of `realPath`; the lock is released however `body` ends. */
export async function withLock<T>(
  realPath: string,
  body: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const fs = options.fs ?? nodeFs;
  const lockPath = lockPathOf(realPath);
  const outer = heldHere.getStore();
  // Waiting for a lock this very call chain holds would wait for itself.
  if (outer?.has(lockPath)) {
    throw new HostIOError('lock-held-by-this-process', undefined, { path: lockPath, role: 'lock' });
  }
  // The lock lives beside the target, so a missing directory (a fresh ~/.cursor) is created
  // first, 0o755 before the umask as Cursor itself creates it.
  await fs.mkdir(dirname(realPath), 0o755).catch((err: unknown) => {
    throw asHostError(err);
  });
  const owner = await acquireLock(
    realPath,
    fs,
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    options.leaseMs ?? DEFAULT_LEASE_MS,
  );
  let result: T;
  try {
    result = await heldHere.run(new Map([...(outer ?? []), [lockPath, owner]]), body);
  } catch (err) {
    // The body's error is the one that matters; a failed release leaves a stale lock that the
    // next run recovers.
    await releaseLock(realPath, owner, fs).catch(() => undefined);
    throw err;
  }
  await releaseLock(realPath, owner, fs);
  return result;
}

/**
 * The one sequence every writer runs: the target's lock, then the side files killed writers
 * left beside it swept, then `body`. Sweeping is safe only under the lock.
 */
export async function withSweptLock<T>(
  path: string,
  body: (realPath: string) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const fs = options.fs ?? nodeFs;
  return withTargetLock(
    path,
    async (realPath) => {
      await removeLeftovers(realPath, fs, (staging) => judgeStaging(staging, fs));
      return body(realPath);
    },
    options,
  );
}

/**
 * Runs `body` holding the lock of the file `path` names, given its real path. The path is
 * resolved again under the lock: a symlink retargeted before the lock was taken names another
 * file, so the lock is released and the new file's taken instead (a bounded number of times).
 * The body throws TargetMovedError when it finds the same after it started.
 */
export async function withTargetLock<T>(
  path: string,
  body: (realPath: string) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const fs = options.fs ?? nodeFs;
  for (let attempt = 1; ; attempt++) {
    const realPath = await resolveTarget(path, fs);
    try {
      return await withLock(
        realPath,
        async () => {
          if ((await resolveTarget(path, fs)) !== realPath) throw new TargetMovedError();
          return body(realPath);
        },
        options,
      );
    } catch (err) {
      if (!(err instanceof TargetMovedError) || attempt > MAX_RELOCKS) throw err;
    }
  }
}

/**
 * The locks the current call chain holds, by lock path: to refuse waiting for itself, and for a
 * write under one to confirm it still holds it.
 */
const heldHere = new AsyncLocalStorage<ReadonlyMap<string, LockOwner>>();

/** The owner record under which this call chain holds the lock of `realPath`, if it does. */
export function heldLockOf(realPath: string): LockOwner | undefined {
  return heldHere.getStore()?.get(lockPathOf(realPath));
}

/**
 * Throws `lock-lost` unless the lock of `realPath` is still `owner`'s record, a regular file and
 * no link. A holder stopped past its lease may have lost it to a waiter: it must not rename over
 * that waiter's write unnoticed.
 */
export async function assertLockHeld(
  realPath: string,
  owner: LockOwner,
  fs: FsSeam,
): Promise<void> {
  const lockPath = lockPathOf(realPath);
  const holder = await readOwner(lockPath, fs);
  if (!isOwner(holder) || holder.nonce !== owner.nonce) {
    throw new HostIOError('lock-lost', undefined, { path: lockPath, role: 'lock' });
  }
}

/**
 * Takes the lock: the owner record is written to a side file first and hard-linked to the lock
 * name, so the lock appears atomically, complete, or not at all.
 */
export async function acquireLock(
  realPath: string,
  fs: FsSeam,
  timeoutMs: number,
  leaseMs = DEFAULT_LEASE_MS,
): Promise<LockOwner> {
  const lockPath = lockPathOf(realPath);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    acquiredAt: new Date().toISOString(),
    nonce: await randomHex(12),
    ...selfIdentity(),
  };
  const claim: Claim = { realPath, owner, staging: await sideFileName(realPath, 'lock-tmp') };
  const untrackStaging = trackSideFile(claim.staging);
  const leases = new Leases(leaseMs);
  try {
    await writeStaging(claim.staging, owner, fs);
    // Every pass ends in a pause, whatever it found: a loop that retried at once could spin
    // forever, and in the CLI, whose calls are synchronous, no signal handler would run. A name
    // found free, or freed by breaking it, is tried once more first, within the pass.
    let holder: LockOwner | 'gone' = 'gone';
    const got = await retry(
      { budgetMs: timeoutMs, firstMs: 2, grow: (ms) => ms * 2, capMs: 50, jitter: true },
      async () => {
        if (await take(claim, lockPath, fs)) return taken(lockPath, owner, fs);
        holder = await ownerOrRefuse(lockPath, fs);
        const stale = isOwner(holder) ? await judge(lockPath, holder, leases, fs) : undefined;
        const freed =
          holder === 'gone' ||
          (stale !== undefined && (await breakStale(lockPath, stale, claim, leases, fs)));
        if (freed && (await take(claim, lockPath, fs))) return taken(lockPath, owner, fs);
        return undefined;
      },
    );
    if (got === undefined) throw timeout(lockPath, holder);
    return got;
  } finally {
    await unlinkGone(claim.staging, fs).catch(() => undefined);
    untrackStaging();
  }
}

/**
 * Removes the lock if it is still ours. Reading then unlinking is safe: only a holder whose
 * process is dead, or that left its lease unrefreshed, is ever broken.
 */
export async function releaseLock(realPath: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  unhold(owner);
  await releaseFile(lockPathOf(realPath), owner, fs);
}

/**
 * The lock beside `realPath` as a waiter would find it now, read-only and without waiting: a
 * holder that can be probed dead is `stale`; one that cannot is `held` (only watching its lease
 * over time could tell).
 */
export async function inspectLock(realPath: string, fs: FsSeam): Promise<LockInspection> {
  const path = lockPathOf(realPath);
  const holder = await readOwner(path, fs);
  if (holder === 'gone') return { path, state: 'free', holder: undefined };
  // Not ours: no command breaks or waits for it; they refuse `lock-foreign`.
  if (holder === 'foreign') return { path, state: 'held', holder: undefined };
  return {
    path,
    state: livenessOf(holder) === 'dead' ? 'stale' : 'held',
    holder: holderOf(holder),
  };
}

/** The lock just linked into place: held, and what a killed breaker left beside it cleared. */
async function taken(lockPath: string, owner: LockOwner, fs: FsSeam): Promise<LockOwner> {
  hold(lockPath, owner);
  await removeDeadBreakers(lockPath, fs);
  return owner;
}

function timeout(lockPath: string, holder: LockOwner | 'gone'): HostIOError {
  const details = isOwner(holder) ? { holder: holderOf(holder) } : {};
  return new HostIOError('lock-timeout', undefined, { path: lockPath, role: 'lock', ...details });
}

function holderOf(owner: LockOwner): LockHolder {
  return { pid: owner.pid, hostname: owner.hostname, acquiredAt: owner.acquiredAt };
}
