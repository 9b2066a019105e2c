// An exclusive inter-process lock beside a real target: `<real>.cursorhooks-lock`, holding
// {pid, hostname, acquiredAt, nonce}. It excludes cooperating cursorhooks writers only; an editor
// that ignores it can still write the target (the compare-and-swap catches that).
// Not proper-lockfile: its staleness is an mtime refreshed by timers; a dead pid is a proof.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { asHostError, errnoOf, HostIOError } from './errors.js';
import { FLAGS, type FsSeam, nodeFs } from './fs-seam.js';
import { lockPathOf, pidAlive, sideFileName } from './leftovers.js';
import { readFileSnapshot } from './read.js';

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
  const staging = sideFileName(realPath, 'lock-tmp');
  try {
    await writeStaging(staging, owner, fs);
    const deadline = Date.now() + timeoutMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      try {
        await fs.link(staging, lockPath);
        return owner;
      } catch (err) {
        if (errnoOf(err) !== 'EEXIST') throw asHostError(err);
      }
      const holder = await readOwner(lockPath, fs);
      if (holder === 'gone') continue;
      if (holder !== 'unreadable' && isStale(holder)) {
        await breakStale(realPath, holder, fs);
        continue;
      }
      if (Date.now() >= deadline) throw new HostIOError('lock-timeout');
      await sleep(backoff * (0.5 + Math.random()));
    }
  } finally {
    await fs.unlink(staging).catch(() => undefined);
  }
}

/** Removes the lock if it is still ours (a lock judged stale and taken over is left alone). */
export async function releaseLock(realPath: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  const lockPath = lockPathOf(realPath);
  const holder = await readOwner(lockPath, fs);
  if (holder === 'gone' || holder === 'unreadable' || holder.nonce !== owner.nonce) return;
  await fs.unlink(lockPath).catch((err: unknown) => {
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

/** Stale only when provably dead: same host, and no process with that pid. */
function isStale(owner: LockOwner): boolean {
  return owner.hostname === hostname() && owner.pid !== process.pid && !pidAlive(owner.pid);
}

/**
 * Removes a stale lock without ever removing a live one: the lock is renamed to a unique name
 * first (only one recoverer can win that rename) and checked; if what was moved is not the stale
 * record (a live holder took the lock in between), it is linked back at once.
 */
async function breakStale(realPath: string, stale: LockOwner, fs: FsSeam): Promise<void> {
  const lockPath = lockPathOf(realPath);
  const moved = sideFileName(realPath, 'lock-stale');
  try {
    await fs.rename(lockPath, moved);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw asHostError(err);
  }
  try {
    const taken = await readOwner(moved, fs);
    if (taken !== 'gone' && taken !== 'unreadable' && taken.nonce === stale.nonce) return;
    await fs.link(moved, lockPath).catch((err: unknown) => {
      if (errnoOf(err) !== 'EEXIST') throw asHostError(err);
    });
  } finally {
    await fs.unlink(moved).catch(() => undefined);
  }
}
