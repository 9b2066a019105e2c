// The side files this process has created and not yet removed (staging files, held locks, others'
// temp files), so an interrupt can remove them before the process dies. Synchronous on purpose:
// a signal handler cannot wait for promises.
import { readFileSync, unlinkSync } from 'node:fs';

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
      if (entry.nonce === undefined || readFileSync(entry.path, 'utf8').includes(entry.nonce)) {
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

function track(entry: Tracked): () => void {
  tracked.add(entry);
  return () => {
    tracked.delete(entry);
  };
}
