// A child for the lock tests: `hold` takes the lock of a target and keeps it until killed;
// `wait` asks for it (blocking while another holds it). Either prints `<pid> <state>` lines, and
// with `interrupt` set first opts in to the kit's clean-up on SIGINT/SIGTERM/SIGHUP.

import { withLock } from '../../../src/node/lock/lock.js';
import { removeSideFilesOnInterrupt } from '../../../src/node/side-files/interrupt.js';

export interface HoldLockJob {
  readonly target: string;
  readonly mode: 'hold' | 'wait';
  readonly interrupt: boolean;
}

const job = JSON.parse(process.argv[2] ?? '{}') as HoldLockJob;
if (job.interrupt) removeSideFilesOnInterrupt();
process.stdout.write(`${process.pid} started\n`);
await withLock(
  job.target,
  async () => {
    process.stdout.write(`${process.pid} held\n`);
    // Keeps the process (and the lock) until a signal ends it: the lock's own timer is unref'd.
    if (job.mode === 'hold') await new Promise(() => setInterval(() => undefined, 1_000));
  },
  { timeoutMs: 60_000 },
);
