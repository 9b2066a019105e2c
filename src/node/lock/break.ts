// Judging a holder and breaking a stale lock. A holder is judged by proof where one exists
// (process-identity.ts); one on another machine or boot by a lease: a waiter that sees its record
// unchanged for a lease on its own monotonic clock may break it (clocks of two machines are never
// compared). A live lock is never moved.
import type { Stats } from 'node:fs';
import { asHostError, errnoOf } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';
import { type Claim, ownerOrRefuse, releaseFile, take, unlinkGone } from './claim.js';
import { livenessOf } from './held.js';
import { isOwner, type LockOwner, readOwner } from './lock-record.js';
import { MAY_BE_ALIVE_CEILING_MS } from './process-identity.js';

/** How many breakers in a row may have died mid-break before the lock is left to time out. */
const MAX_BREAK_DEPTH = 3;
const BREAK_SUFFIX = '.break';

/** A record judged stale, and the file state it was judged on: it is broken only unchanged. */
export interface Judged {
  readonly owner: LockOwner;
  readonly seen: string;
}

/**
 * The last change each waiter saw of each lock or break file that no probe can judge, on its own
 * monotonic clock: clocks of other machines are never compared.
 */
export class Leases {
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
export async function judge(
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
export async function judgeStaging(
  path: string,
  fs: FsSeam,
): Promise<'stale' | 'kept' | 'unreadable'> {
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
export async function breakStale(
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
export async function removeDeadBreakers(lockPath: string, fs: FsSeam): Promise<void> {
  let path = lockPath;
  for (let depth = 0; depth <= MAX_BREAK_DEPTH; depth++) {
    path += BREAK_SUFFIX;
    const breaker = await readOwner(path, fs).catch(() => 'foreign' as const);
    if (isOwner(breaker) && livenessOf(breaker) === 'dead') {
      await unlinkGone(path, fs).catch(() => undefined);
    }
  }
}
