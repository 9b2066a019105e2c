// A refused file-level command names its way out in status's own shape: status read for the same
// files, spec and contract files, its step pointed at what the refused command was for.
import type { HookSpec } from '../../domain/hook-spec.js';
import type { CursorHooksError } from '../../errors/errors.js';
import { blockingFs } from '../../node/fs-seam.js';
import type { StatusIntent, StatusPlanner } from '../../node/status.js';
import type { OptionValues } from '../command.js';
import { metadataLossOf } from './options.js';
import { nextStepJSON, type StatusResultJSON } from './status-result.js';

export interface RefusedRun {
  readonly command: StatusIntent['command'];
  readonly error: CursorHooksError;
  readonly hooksFile: string;
  readonly ledger: string;
  readonly planner: StatusPlanner;
  readonly spec?: HookSpec;
  readonly shell?: string;
  readonly options: OptionValues;
}

export type NextStepJSON = StatusResultJSON['nextStep'];

/** Null only where status itself cannot be read: the refusal is then reported without it. */
export async function refusalStep(run: RefusedRun): Promise<NextStepJSON | null> {
  const { hooksFile, ledger, planner, spec, shell, options } = run;
  // Loaded only for a refusal: a run that succeeds never evaluates status.
  const { readStatus } = await import('../../node/status.js');
  const status = await readStatus({
    hooksFile,
    ledger,
    planner,
    fs: blockingFs,
    ...metadataLossOf(options),
    ...(spec === undefined ? {} : { spec }),
    ...(shell === undefined ? {} : { shell }),
    intent: { command: run.command, refused: run.error.reason },
  }).catch(() => undefined);
  if (status === undefined) return null;
  return nextStepJSON(status, ledger, contractFilesOf(options));
}

/** The `--contract-file` paths as given, for the printed line to carry them again. */
export const contractFilesOf = (options: OptionValues): readonly string[] =>
  (options['contract-file'] as readonly string[] | undefined) ?? [];
