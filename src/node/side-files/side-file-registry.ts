// Room side-files/: the kit's own files beside a target: their names, the sweep, removal on interrupt.
// The side files this process has created and not yet removed (staging files, held locks, others'
// temp files), so an interrupt can remove them before the process dies. Synchronous on purpose:
// a signal handler cannot wait for promises.
import { closeSync, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { MAX_LOCK_RECORD_BYTES } from '../../limits.js';
import { FLAGS } from '../write/fs-calls.js';

interface Tracked {
  readonly path: string;
  /** For a lock: removed only while it still holds this nonce (it may have been broken). */
  readonly nonce?: string;
}

const tracked = new Set<Tracked>();

/** Records a side file this process created; the returned function forgets it again. */
export function trackSideFile(path: string): () => void {
  return track({ path });
}

/** Records a lock this process holds, removed on interrupt only while its record is ours. */
export function trackLockFile(path: string, nonce: string): () => void {
  return track({ path, nonce });
}

/** Whether this process created `path` and has not removed it yet. */
export function isTracked(path: string): boolean {
  for (const entry of tracked) if (entry.path === path) return true;
  return false;
}

/** Removes every tracked side file now, best effort; returns how many were removed. */
export function removeTrackedSideFiles(): number {
  let removed = 0;
  for (const entry of tracked) {
    try {
      if (entry.nonce === undefined || holdsNonce(entry.path, entry.nonce)) {
        unlinkSync(entry.path);
        removed++;
      }
    } catch {
      // Gone already, or not removable: the next run's clean-up recovers it.
    }
    tracked.delete(entry);
  }
  return removed;
}

/**
 * Whether the lock at `path` still holds `nonce`. Never through a link, never waiting on a FIFO
 * planted there, at most a record's size: a signal handler that blocked would never let the
 * process die.
 */
function holdsNonce(path: string, nonce: string): boolean {
  const fd = openSync(path, FLAGS.readNoFollow);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_LOCK_RECORD_BYTES) return false;
    const bytes = new Uint8Array(stats.size);
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    return new TextDecoder().decode(bytes.subarray(0, length)).includes(nonce);
  } finally {
    closeSync(fd);
  }
}

function track(entry: Tracked): () => void {
  tracked.add(entry);
  return () => {
    tracked.delete(entry);
  };
}
