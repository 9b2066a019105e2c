// An exclusive inter-process lock beside a real target: `<real>.cursorhooks-lock`, holding
// {pid, hostname, acquiredAt, nonce}. It excludes cooperating cursorhooks writers only; an editor
// that ignores it can still write the target (the compare-and-swap catches that).
// Not proper-lockfile: its staleness is an mtime refreshed by timers; a dead pid is a proof.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { asHostError, errnoOf, HostIOError, TargetMovedError } from './errors.js';
import { FLAGS, type FsSeam, nodeFs } from './fs-seam.js';
import { lockPathOf, pidAlive, sideFileName } from './leftovers.js';
import { type FileSnapshot, readFileSnapshot, resolveTarget } from './read.js';

export interface LockOptions {
  readonly fs?: FsSeam;
  /** How long to wait for a live holder before `lock-timeout`; default 10 s. */
  readonly timeoutMs?: number;
}

export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly acquiredAt: string;
  readonly nonce: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
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
  // The lock lives beside the target, so a missing directory (a fresh ~/.cursor) is created
  // first, 0o755 before the umask as Cursor itself creates it.
  await fs.mkdir(dirname(realPath), 0o755).catch((err: unknown) => {
    throw asHostError(err);
  });
  const owner = await acquireLock(realPath, fs, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let result: T;
  try {
    result = await body();
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
): Promise<FileSnapshot> {
  const snapshot = await readFileSnapshot(path, fs);
  if (snapshot.realPath !== realPath) throw new TargetMovedError();
  return snapshot;
}

/**
 * Takes the lock: the owner record is written to a side file first and hard-linked to the lock
 * name, so the lock appears atomically, complete, or not at all.
 */
export async function acquireLock(
  realPath: string,
  fs: FsSeam,
  timeoutMs: number,
): Promise<LockOwner> {
  const lockPath = lockPathOf(realPath);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    acquiredAt: new Date().toISOString(),
    nonce: randomBytes(12).toString('hex'),
  };
  const claim: Claim = { owner, staging: sideFileName(realPath, 'lock-tmp') };
  try {
    await writeStaging(claim.staging, owner, fs);
    const deadline = Date.now() + timeoutMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      if (await take(claim.staging, lockPath, fs)) {
        await removeDeadBreakers(lockPath, fs);
        return owner;
      }
      const holder = await readOwner(lockPath, fs);
      if (holder === 'gone') continue;
      if (isOwner(holder) && isStale(holder) && (await breakStale(lockPath, holder, claim, fs))) {
        continue;
      }
      if (Date.now() >= deadline) throw new HostIOError('lock-timeout');
      await sleep(backoff * (0.5 + Math.random()));
    }
  } finally {
    await fs.unlink(claim.staging).catch(() => undefined);
  }
}

/**
 * Removes the lock if it is still ours. Reading then unlinking is safe: only a holder whose
 * process is dead is ever broken, so nobody replaces our record while we live.
 */
export async function releaseLock(realPath: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  await releaseFile(lockPathOf(realPath), owner, fs);
}

async function releaseFile(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  const holder = await readOwner(path, fs);
  if (!isOwner(holder) || holder.nonce !== owner.nonce) return;
  await unlinkGone(path, fs);
}

/** Our owner record ready in a staging file, linked to whatever name we take. */
interface Claim {
  readonly owner: LockOwner;
  readonly staging: string;
}

/** Links `staging` to `name`: true if taken, false if `name` exists. */
async function take(staging: string, name: string, fs: FsSeam): Promise<boolean> {
  try {
    await fs.link(staging, name);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    throw asHostError(err);
  }
}

async function unlinkGone(path: string, fs: FsSeam): Promise<void> {
  await fs.unlink(path).catch((err: unknown) => {
    if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
  });
}

async function writeStaging(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  const handle = await fs.open(path, FLAGS.createExclusive, 0o644).catch((err: unknown) => {
    throw asHostError(err);
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

/** The lock's owner; `gone` if released meanwhile; `unreadable` if it is not our record. */
export async function readOwner(
  lockPath: string,
  fs: FsSeam,
): Promise<LockOwner | 'gone' | 'unreadable'> {
  const snapshot = await readFileSnapshot(lockPath, fs);
  if (!snapshot.exists) return 'gone';
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(snapshot.bytes));
    const { pid, hostname: host, acquiredAt, nonce } = value as Record<string, unknown>;
    if (
      Number.isSafeInteger(pid) &&
      typeof host === 'string' &&
      typeof acquiredAt === 'string' &&
      typeof nonce === 'string'
    ) {
      return { pid: pid as number, hostname: host, acquiredAt, nonce };
    }
  } catch {
    // Not JSON: a foreign file, never ours to remove.
  }
  return 'unreadable';
}

function isOwner(holder: LockOwner | 'gone' | 'unreadable'): holder is LockOwner {
  return holder !== 'gone' && holder !== 'unreadable';
}

/** Stale only when provably dead: same host, and no process with that pid. */
function isStale(owner: LockOwner): boolean {
  return owner.hostname === hostname() && owner.pid !== process.pid && !pidAlive(owner.pid);
}

/**
 * Removes `file` only if it still holds the stale record; a live lock is never moved. Breakers
 * take `<file>.break` in turn (by link, like the lock) and re-read `file` under it: a removed
 * nonce never comes back, so a late breaker finds another record and leaves it. A break file
 * whose holder died is broken the same way one level deeper, at most MAX_BREAK_DEPTH deep
 * (deeper, the lock times out rather than guess). True when `file` was removed.
 */
async function breakStale(
  file: string,
  stale: LockOwner,
  claim: Claim,
  fs: FsSeam,
  depth = 0,
): Promise<boolean> {
  const breakPath = `${file}${BREAK_SUFFIX}`;
  if (!(await take(claim.staging, breakPath, fs))) {
    const breaker = await readOwner(breakPath, fs);
    if (isOwner(breaker) && isStale(breaker) && depth < MAX_BREAK_DEPTH) {
      await breakStale(breakPath, breaker, claim, fs, depth + 1);
    }
    // A live breaker is finishing the job, or its dead file is gone now: the caller retries.
    return false;
  }
  try {
    const holder = await readOwner(file, fs);
    if (!isOwner(holder) || holder.nonce !== stale.nonce) return false;
    await unlinkGone(file, fs);
    return true;
  } finally {
    await releaseFile(breakPath, claim.owner, fs);
  }
}

/**
 * Clears break files a killed breaker left beside the lock just taken (at most one per level a
 * break can reach). Holding the lock makes this safe even against a late breaker: every nonce it
 * could have judged stale is gone. Best effort: a failure here must not lose the lock just taken,
 * and a leftover break file is broken by the next breaker anyway.
 */
async function removeDeadBreakers(lockPath: string, fs: FsSeam): Promise<void> {
  let path = lockPath;
  for (let depth = 0; depth <= MAX_BREAK_DEPTH; depth++) {
    path += BREAK_SUFFIX;
    const breaker = await readOwner(path, fs).catch(() => 'unreadable' as const);
    if (breaker === 'gone') return;
    if (isOwner(breaker) && isStale(breaker)) await unlinkGone(path, fs).catch(() => undefined);
  }
}
