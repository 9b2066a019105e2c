// A child process for the concurrency and crash tests: runs one operation with the kit, and,
// when asked, SIGKILLs itself just before its Nth mutating file-system call. The
// kill is injected through the fs seam here, in test code; the kit has no switch for it.
import { runOperation } from '../../../src/node/run-operation.js';
import type { Operation } from '../../../src/planner/operation.js';
import { killingSeam } from './killing-seam.js';

export interface ChildJob {
  readonly operation: Operation;
  readonly hooks: string;
  readonly ledger: string;
  readonly spec: { executable: string; selector: string };
  readonly shell: string;
  /** Kill just before this mutating call (1-based); 0 never. */
  readonly killAt: number;
  /** disable or enable: the run disableHook or enableHook makes. */
  readonly intent?: 'disable' | 'enable';
}

const job = JSON.parse(process.argv[2] ?? '{}') as ChildJob;
const { fs, count } = killingSeam(job.killAt);
const outcome = await runOperation({
  operation: job.operation,
  hooksFile: job.hooks,
  ledger: job.ledger,
  spec: job.spec,
  shell: job.shell,
  checkHostPaths: async () => ({ verified: true, checks: [] }),
  fs,
  lockTimeoutMs: 30_000,
  ...(job.intent === undefined ? {} : { intent: job.intent }),
});
process.stdout.write(
  JSON.stringify({ status: outcome.status, reason: outcome.error?.reason, calls: count() }),
);
