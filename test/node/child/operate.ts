// A child process for the concurrency and crash tests: runs one operation with the kit, and,
// when asked, SIGKILLs itself just before its Nth mutating file-system call. The
// kill is injected through the fs seam here, in test code; the kit has no switch for it.
import { constants } from 'node:fs';
import type { FsSeam } from '../../../src/node/fs-seam.js';
import { nodeFs } from '../../../src/node/fs-seam.js';
import { runOperation } from '../../../src/node/run-operation.js';
import type { Operation } from '../../../src/planner/operation.js';

export interface ChildJob {
  readonly operation: Operation;
  readonly hooks: string;
  readonly ledger: string;
  readonly spec: { executable: string; selector: string };
  readonly shell: string;
  /** Kill just before this mutating call (1-based); 0 never. */
  readonly killAt: number;
}

/**
 * Calls that change what another process can see or what survives a crash. Left out: mkdir
 * (the directories exist here), close, fchmod and fchown (on a temp file nobody reads yet).
 */
const ALWAYS = new Set(['rename', 'link', 'unlink', 'fsync']);
/** Calls that matter only on a file this run created. */
const ON_CREATED = new Set(['write']);

function killingSeam(killAt: number): { fs: FsSeam; count: () => number } {
  let calls = 0;
  const created = new WeakSet<object>();
  const fs: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(nodeFs)) {
    fs[name] = async (...args: unknown[]) => {
      const creates = name === 'open' && ((args[1] as number) & constants.O_CREAT) !== 0;
      const mutating =
        creates || ALWAYS.has(name) || (ON_CREATED.has(name) && created.has(args[0] as object));
      if (mutating && ++calls === killAt) process.kill(process.pid, 'SIGKILL');
      const result = await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      if (creates) created.add(result as object);
      return result;
    };
  }
  return { fs: fs as unknown as FsSeam, count: () => calls };
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
});
process.stdout.write(
  JSON.stringify({ status: outcome.status, reason: outcome.error?.reason, calls: count() }),
);
