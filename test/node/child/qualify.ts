// A child for the qualification crash sweep: runs one qualify step with the kit and SIGKILLs
// itself just before its Nth mutating file-system call (mkdir and rmdir count: the probe makes
// and removes directories).
import {
  cancelQualification,
  finishQualification,
  startQualification,
} from '../../../src/node/index.js';
import { killingSeam } from './killing-seam.js';

export interface QualifyJob {
  readonly action: 'start' | 'finish' | 'cancel';
  readonly stateDir: string;
  readonly hooksFile: string;
  readonly out: string;
  /** Kill just before this mutating call (1-based); 0 never. */
  readonly killAt: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as QualifyJob;
const { fs, count } = killingSeam(job.killAt, ['mkdir', 'rmdir']);
const base = { stateDir: job.stateDir, fs, lockTimeoutMs: 30_000 };
const outcome =
  job.action === 'start'
    ? await startQualification({
        ...base,
        hooksFile: job.hooksFile,
        family: 'posix-single-quote',
        checkHostPaths: async () => ({ verified: true, checks: [] }),
      })
    : job.action === 'finish'
      ? await finishQualification({ ...base, out: job.out })
      : await cancelQualification(base);
process.stdout.write(
  JSON.stringify({ status: outcome.status, reason: outcome.error?.reason, calls: count() }),
);
