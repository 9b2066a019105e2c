// The locks this process holds: each one's heartbeat (lease-beat.ts) and its entry for interrupt
// clean-up, started when it is taken and stopped when it is released. A lock of this process is
// never judged by the probes: it is alive.
import { trackLockFile } from '../side-files/side-file-registry.js';
import { startBeat } from './lease-beat.js';
import type { LockOwner } from './lock-record.js';
import { type Liveness, liveness } from './process-identity.js';

/** The locks this process holds, by nonce: their refresh and interrupt clean-up. */
const held = new Map<string, { readonly stop: () => void }>();

/** Starts refreshing a lock just taken and tracks it for interrupt clean-up. */
export function hold(lockPath: string, owner: LockOwner): void {
  const untrack = trackLockFile(lockPath, owner.nonce);
  const stopBeat = startBeat(lockPath, owner.nonce);
  held.set(owner.nonce, {
    stop: () => {
      stopBeat();
      untrack();
    },
  });
}

/** Stops the heartbeat and the interrupt clean-up of the lock held under `owner`. */
export function unhold(owner: LockOwner): void {
  held.get(owner.nonce)?.stop();
  held.delete(owner.nonce);
}

/** A lock of this process is alive whatever the probes say (our own pid is never judged). */
export function livenessOf(owner: LockOwner): Liveness {
  return held.has(owner.nonce) ? 'alive' : liveness(owner);
}
