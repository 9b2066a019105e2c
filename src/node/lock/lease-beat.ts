// The heartbeat of the locks this process holds: each lock's mtime is refreshed every REFRESH_MS,
// so a waiter that can only judge its holder by a lease sees it alive. Beaten from a timer and
// from every call of the fs seam: the CLI's synchronous calls, run back to back, or one slow
// fsync, starve the timer, never the calls themselves. Outside the seam: a beat is not a step of
// any write, and a missed one only shortens the lease.
import {
  close,
  closeSync,
  fstat,
  fstatSync,
  lutimes,
  lutimesSync,
  open,
  openSync,
  read,
  readSync,
  type Stats,
} from 'node:fs';
import { MAX_LOCK_RECORD_BYTES } from '../../limits.js';
import { FLAGS, onThreadPool, type Runner } from '../write/fs-calls.js';

/** How often a holder refreshes its lock; well inside the lease, even with 1 s mtimes. */
export const REFRESH_MS = 500;

interface Beat {
  readonly path: string;
  readonly nonce: string;
  /** When this lock was last refreshed (or taken), on the monotonic clock. */
  last: number;
}

const beats = new Set<Beat>();
let timer: ReturnType<typeof setInterval> | undefined;

/** Starts refreshing the lock at `path`, taken just now with `nonce`; returns its stop. */
export function startBeat(path: string, nonce: string): () => void {
  const beat: Beat = { path, nonce, last: performance.now() };
  beats.add(beat);
  if (timer === undefined) {
    // The timer is the schedule itself: every tick beats (its loop clock may run a little early).
    timer = setInterval(() => beatLocks(onThreadPool, 0), REFRESH_MS);
    // A held lock never keeps a finished process alive.
    timer.unref();
  }
  return () => {
    beats.delete(beat);
    if (beats.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * Refreshes every held lock whose last beat is REFRESH_MS old, its calls made by `run` (the
 * seam's own way). Costs one size check while no lock is held.
 */
export function beatHeldLocks(run: Runner): void {
  if (beats.size > 0) beatLocks(run, REFRESH_MS);
}

function beatLocks(run: Runner, dueMs: number): void {
  const now = performance.now();
  for (const beat of beats) {
    if (now - beat.last < dueMs) continue;
    beat.last = now;
    refresh(beat, run).catch(() => undefined);
  }
}

/**
 * Touches the lock only while it still holds our nonce: a holder stopped past its lease and
 * resumed must not keep the lock of whoever broke it looking alive. Never through a link.
 */
async function refresh(beat: Beat, run: Runner): Promise<void> {
  const fd = await run<number>(open, openSync, beat.path, FLAGS.readNoFollow);
  try {
    const stats = await run<Stats>(fstat, fstatSync, fd);
    if (!stats.isFile() || stats.size > MAX_LOCK_RECORD_BYTES) return;
    const bytes = new Uint8Array(stats.size);
    const length = await run<number>(read, readSync, fd, bytes, 0, bytes.length, 0);
    if (!new TextDecoder().decode(bytes.subarray(0, length)).includes(beat.nonce)) return;
    const now = new Date();
    await run<void>(lutimes, lutimesSync, beat.path, now, now);
  } finally {
    await run<void>(close, closeSync, fd).catch(() => undefined);
  }
}
