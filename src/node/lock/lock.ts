// An exclusive inter-process lock beside a real target: `<real>.cursorhooks-lock`, holding
// {pid, hostname, acquiredAt, nonce} and, where Linux shows them, the holder's boot id, pid
// namespace and start time. It excludes cooperating cursorhooks writers only; an editor that
// ignores it can still write the target (the compare-and-swap catches that).
// A holder is judged by proof where one exists (process-identity.ts). One that ran on this machine
// but cannot be told apart from another process (a pid that answers without /proc, a pid
// namespace we cannot see into) may be alive: it keeps its lock for hours, whether it is slow or
// stopped. Only one on another machine or boot is judged by a lease: a holder refreshes the lock
// file's mtime every REFRESH_MS (lease-beat.ts), and a waiter that sees no change for a lease on
// its own monotonic clock breaks it (clocks of two machines are never compared).
// A holder confirms its lock is still its own right before and after each rename (assertLockHeld).
// A lock name holding anything but our record (lock-record.ts) is refused, never followed,
// waited for or removed. Without hard links (FAT, exFAT, some network mounts) there is no lock:
// refused once, `lock-no-hard-links` (see take).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Stats } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import {
  asHostError,
  creatingIn,
  errnoOf,
  HostIOError,
  type LockHolder,
  TargetMovedError,
} from '../errors.js';
import { lockPathOf, removeLeftovers, sideFileName } from '../side-files/leftovers.js';
import { trackLockFile, trackSideFile } from '../side-files/side-file-registry.js';
import { FLAGS, type FsSeam, nodeFs } from '../write/fs-seam.js';
import { randomHex } from '../write/random.js';
import {
  type FileSnapshot,
  type ReadOptions,
  readFileSnapshot,
  resolveTarget,
} from '../write/read.js';
import { sleep } from '../write/sleep.js';
import { startBeat } from './lease-beat.js';
import { isOwner, type LockOwner, readOwner } from './lock-record.js';
import {
  type Liveness,
  liveness,
  MAY_BE_ALIVE_CEILING_MS,
  selfIdentity,
} from './process-identity.js';

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
const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 50;
/** How often a retargeted symlink is followed to a new lock before `file-changed`. */
const MAX_RELOCKS = 3;
/** How many breakers in a row may have died mid-break before the lock is left to time out. */
const MAX_BREAK_DEPTH = 3;
const BREAK_SUFFIX = '.break';

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

/** Reads `path` under the lock of `realPath`; TargetMovedError if it names another file now. */
export async function readLocked(
  path: string,
  realPath: string,
  fs: FsSeam,
  options: ReadOptions = {},
): Promise<FileSnapshot> {
  const snapshot = await readFileSnapshot(path, fs, options);
  if (snapshot.realPath !== realPath) throw new TargetMovedError();
  return snapshot;
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

/** The locks this process holds, by nonce: their refresh and interrupt clean-up. */
const held = new Map<string, { readonly stop: () => void }>();

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
    // The global `performance`: Node loads perf_hooks on first use, so calls that never lock skip it.
    const deadline = performance.now() + timeoutMs;
    // Every pass checks the deadline and sleeps, whatever it found: a loop that retried at once
    // could spin forever, and in the CLI, whose calls are synchronous, no signal handler would run.
    // A name found free, or freed by breaking it, is tried once more first, within the pass.
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      if (await take(claim, lockPath, fs)) return taken(lockPath, owner, fs);
      const holder = await ownerOrRefuse(lockPath, fs);
      const stale = isOwner(holder) ? await judge(lockPath, holder, leases, fs) : undefined;
      const freed =
        holder === 'gone' ||
        (stale !== undefined && (await breakStale(lockPath, stale, claim, leases, fs)));
      if (freed && (await take(claim, lockPath, fs))) return taken(lockPath, owner, fs);
      if (performance.now() >= deadline) throw timeout(lockPath, holder);
      await sleep(backoff * (0.5 + Math.random()));
    }
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
  held.get(owner.nonce)?.stop();
  held.delete(owner.nonce);
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

/** Starts refreshing a lock just taken and tracks it for interrupt clean-up. */
function hold(lockPath: string, owner: LockOwner): void {
  const untrack = trackLockFile(lockPath, owner.nonce);
  const stopBeat = startBeat(lockPath, owner.nonce);
  held.set(owner.nonce, {
    stop: () => {
      stopBeat();
      untrack();
    },
  });
}

/**
 * The record at a lock or break name another holds; `lock-foreign` when it is not ours: no
 * cursorhooks process wrote it, so none will ever remove it, and it is not ours to remove.
 */
async function ownerOrRefuse(path: string, fs: FsSeam): Promise<LockOwner | 'gone'> {
  const holder = await readOwner(path, fs);
  if (holder === 'foreign')
    throw new HostIOError('lock-foreign', undefined, { path, role: 'lock' });
  return holder;
}

function timeout(lockPath: string, holder: LockOwner | 'gone'): HostIOError {
  const details = isOwner(holder) ? { holder: holderOf(holder) } : {};
  return new HostIOError('lock-timeout', undefined, { path: lockPath, role: 'lock', ...details });
}

function holderOf(owner: LockOwner): LockHolder {
  return { pid: owner.pid, hostname: owner.hostname, acquiredAt: owner.acquiredAt };
}

async function releaseFile(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  const holder = await readOwner(path, fs);
  if (!isOwner(holder) || holder.nonce !== owner.nonce) return;
  await unlinkGone(path, fs);
}

/** Our owner record ready in a staging file, linked to whatever name we take. */
interface Claim {
  readonly realPath: string;
  readonly owner: LockOwner;
  readonly staging: string;
}

/** Errors of a link(2) on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/**
 * The same, only if a probe agrees: Linux says EPERM on vfat; Windows answers a FAT volume with
 * ERROR_INVALID_FUNCTION, which libuv reports as EISDIR. Either may also be about the name alone.
 */
const MAYBE_NO_HARD_LINKS = new Set(['EPERM', 'EISDIR']);

/**
 * Links the claim's staging file to `name`: true if taken, false if `name` exists (even as a
 * dangling link: link(2) never follows the new name). Windows' transient refusals are retried
 * by the seam, once, not here again.
 */
async function take(claim: Claim, name: string, fs: FsSeam): Promise<boolean> {
  try {
    await fs.link(claim.staging, name);
    return true;
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'EEXIST') return false;
    const none =
      NO_HARD_LINKS.has(code ?? '') ||
      (MAYBE_NO_HARD_LINKS.has(code ?? '') && !(await linksWork(claim, fs)));
    if (none) {
      throw new HostIOError('lock-no-hard-links', code, { path: dirname(name), role: 'directory' });
    }
    throw asHostError(err);
  }
}

/**
 * Whether the staging file links to a fresh name. EPERM may mean no hard links (vfat) or, on
 * Windows, a lock name still being deleted: only the first also refuses a name nobody ever used.
 * A fallback lock (an exclusive create, then the record) was not chosen: its empty moment cannot be told from a foreign empty file, which would then have
 * to be waited for instead of refused.
 */
async function linksWork(claim: Claim, fs: FsSeam): Promise<boolean> {
  const probe = await sideFileName(claim.realPath, 'lock-tmp');
  const untrack = trackSideFile(probe);
  try {
    await fs.link(claim.staging, probe);
  } catch (err) {
    untrack();
    const code = errnoOf(err) ?? '';
    if (MAYBE_NO_HARD_LINKS.has(code) || NO_HARD_LINKS.has(code)) return false;
    throw asHostError(err);
  }
  try {
    await unlinkGone(probe, fs);
  } finally {
    untrack();
  }
  return true;
}

async function unlinkGone(path: string, fs: FsSeam): Promise<void> {
  await fs.unlink(path).catch((err: unknown) => {
    if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
  });
}

async function writeStaging(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  // The first file any write makes beside its target: where a read-only directory shows.
  const handle = await fs.open(path, FLAGS.createExclusive, 0o644).catch((err: unknown) => {
    throw creatingIn(err, dirname(path));
  });
  try {
    await fs.write(handle, new TextEncoder().encode(`${JSON.stringify(owner)}\n`));
    // Flushed, so a lock surviving a power loss still names its (then dead) owner.
    await fs.fsync(handle);
  } catch (err) {
    throw asHostError(err);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

/** A lock of this process is alive whatever the probes say (our own pid is never judged). */
function livenessOf(owner: LockOwner): Liveness {
  return held.has(owner.nonce) ? 'alive' : liveness(owner);
}

/** A record judged stale, and the file state it was judged on: it is broken only unchanged. */
interface Judged {
  readonly owner: LockOwner;
  readonly seen: string;
}

/**
 * The last change each waiter saw of each lock or break file that no probe can judge, on its own
 * monotonic clock: clocks of other machines are never compared.
 */
class Leases {
  private readonly seen = new Map<string, { readonly state: string; readonly since: number }>();

  constructor(private readonly leaseMs: number) {}

  /** Whether `path` has shown `state` unchanged for a whole lease. */
  expired(path: string, state: string): boolean {
    const now = performance.now();
    const last = this.seen.get(path);
    if (last === undefined || last.state !== state) {
      this.seen.set(path, { state, since: now });
      return false;
    }
    return now - last.since >= this.leaseMs;
  }
}

/** The lock or break file's status now; undefined once it is gone. */
async function statusOf(path: string, fs: FsSeam): Promise<Stats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw asHostError(err);
  }
}

/** What identifies one refresh of one record: its nonce, inode and mtime. */
function stateOf(owner: LockOwner, stats: Stats): string {
  return `${owner.nonce}:${stats.ino}:${stats.mtimeMs}`;
}

/** What identifies one refresh of the record at `path`; undefined once it is gone. */
async function fileState(path: string, owner: LockOwner, fs: FsSeam): Promise<string | undefined> {
  const stats = await statusOf(path, fs);
  return stats === undefined ? undefined : stateOf(owner, stats);
}

/**
 * The record as judged, if its holder is provably dead, or may be alive but left it unrefreshed
 * past the ceiling (on this machine's clock: same machine), or cannot be probed and let its lease
 * run out; else undefined.
 */
async function judge(
  path: string,
  owner: LockOwner,
  leases: Leases,
  fs: FsSeam,
): Promise<Judged | undefined> {
  const verdict = livenessOf(owner);
  if (verdict === 'alive') return undefined;
  const stats = await statusOf(path, fs);
  if (stats === undefined) return undefined;
  const seen = stateOf(owner, stats);
  const stale =
    verdict === 'dead' ||
    (verdict === 'maybe-alive'
      ? Date.now() - stats.mtimeMs >= MAY_BE_ALIVE_CEILING_MS
      : leases.expired(path, seen));
  return stale ? { owner, seen } : undefined;
}

/**
 * A waiter's staging file judged by the record inside: stale when its writer is dead or the file
 * outlived the ceiling (a waiter stages its record only while it waits).
 */
async function judgeStaging(path: string, fs: FsSeam): Promise<'stale' | 'kept' | 'unreadable'> {
  const stats = await statusOf(path, fs);
  if (stats === undefined) return 'kept';
  if (Date.now() - stats.mtimeMs >= MAY_BE_ALIVE_CEILING_MS) return 'stale';
  const record = await readOwner(path, fs).catch(() => 'foreign' as const);
  if (record === 'gone') return 'kept';
  if (!isOwner(record)) return 'unreadable';
  return livenessOf(record) === 'dead' ? 'stale' : 'kept';
}

/**
 * Removes `file` only if it still holds the stale record, unchanged; a live lock is never moved.
 * Breakers take `<file>.break` in turn (by link, like the lock) and re-read `file` under it: a
 * removed nonce never comes back, so a late breaker finds another record and leaves it. A break
 * file whose holder died is broken the same way one level deeper, at most MAX_BREAK_DEPTH deep
 * (deeper, the lock times out rather than guess). A break name holding something not ours is
 * refused, `lock-foreign`, as the lock name is. True when `file` was removed.
 */
async function breakStale(
  file: string,
  stale: Judged,
  claim: Claim,
  leases: Leases,
  fs: FsSeam,
  depth = 0,
): Promise<boolean> {
  const breakPath = `${file}${BREAK_SUFFIX}`;
  if (!(await take(claim, breakPath, fs))) {
    const breaker = await ownerOrRefuse(breakPath, fs);
    const dead = isOwner(breaker) ? await judge(breakPath, breaker, leases, fs) : undefined;
    if (dead !== undefined && depth < MAX_BREAK_DEPTH) {
      await breakStale(breakPath, dead, claim, leases, fs, depth + 1);
    }
    // A live breaker is finishing the job, or its dead file is gone now: the caller retries.
    return false;
  }
  try {
    const holder = await readOwner(file, fs);
    // Only the record judged, unchanged: a new holder differs in its nonce, and a lease holder
    // that refreshed since (alive after all) in its mtime.
    if (!isOwner(holder) || (await fileState(file, holder, fs)) !== stale.seen) return false;
    await unlinkGone(file, fs);
    return true;
  } finally {
    await releaseFile(breakPath, claim.owner, fs);
  }
}

/**
 * Clears break files a killed breaker left beside the lock just taken, at every level a break can
 * reach (a gap does not end the search: a deeper one outlives the shallower it broke). Holding
 * the lock makes this safe even against a late breaker: every nonce it could have judged stale is
 * gone. Best effort: a failure here must not lose the lock just taken, and a leftover break file
 * is broken by the next breaker anyway.
 */
async function removeDeadBreakers(lockPath: string, fs: FsSeam): Promise<void> {
  let path = lockPath;
  for (let depth = 0; depth <= MAX_BREAK_DEPTH; depth++) {
    path += BREAK_SUFFIX;
    const breaker = await readOwner(path, fs).catch(() => 'foreign' as const);
    if (isOwner(breaker) && livenessOf(breaker) === 'dead') {
      await unlinkGone(path, fs).catch(() => undefined);
    }
  }
}
