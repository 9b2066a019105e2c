// A child for the liveness tests: takes the lock of a target, prints `<pid> held <ms>`, blocks
// synchronously for `blockMs` (no event loop, no seam call: a slow fsync or a Ctrl-Z as a waiter
// sees it), prints `<pid> releasing <ms>` and releases. `<ms>` is Date.now(), one clock for all
// children on the machine.
import { withLock } from '../../../src/node/lock/lock.js';

export interface LockTimingJob {
  readonly target: string;
  readonly blockMs: number;
  readonly timeoutMs: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as LockTimingJob;
process.stdout.write(`${process.pid} started ${Date.now()}\n`);
try {
  await withLock(
    job.target,
    async () => {
      process.stdout.write(`${process.pid} held ${Date.now()}\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.blockMs);
      process.stdout.write(`${process.pid} releasing ${Date.now()}\n`);
    },
    { timeoutMs: job.timeoutMs },
  );
} catch (err) {
  process.stdout.write(`${process.pid} failed ${(err as { reason?: string }).reason}\n`);
}
