// A child for the soak tests: installs and removes its own spec, with its own ledger, for a
// number of rounds on one shared hook file, and reports every status (and refusal reason) seen.
import { runOperation } from '../../../src/node/run-operation.js';
import { Operation } from '../../../src/planner/operation.js';

export interface RoundsJob {
  readonly hooks: string;
  readonly ledger: string;
  readonly spec: { executable: string; selector: string };
  readonly shell: string;
  readonly rounds: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as RoundsJob;
const seen: string[] = [];
for (let round = 0; round < job.rounds; round++) {
  for (const operation of [Operation.Install, Operation.Remove]) {
    // A retryable outcome is retried, as a host would; anything else is reported as it came.
    for (let attempt = 0; ; attempt++) {
      const outcome = await runOperation({
        operation,
        hooksFile: job.hooks,
        ledger: job.ledger,
        spec: job.spec,
        shell: job.shell,
        checkHostPaths: async () => ({ verified: true, checks: [] }),
        lockTimeoutMs: 60_000,
      });
      const reason = outcome.error?.reason;
      if (reason === 'file-changed' && attempt < 20) continue;
      seen.push(reason === undefined ? outcome.status : `${outcome.status}:${reason}`);
      break;
    }
  }
}
process.stdout.write(JSON.stringify({ status: 'done', seen, calls: 0 }));
