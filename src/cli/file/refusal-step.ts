// A refused file-level command names its way out in status's own shape: status read for the same
// files, spec and contract files, its step pointed at what the refused command was for.
import type { CursorHooksError } from '../../errors/errors.js';
import type { StatusIntent } from '../../node/status/status.js';
import { contractFilesOf } from '../contract-files.js';
import { readCliStatus, type StatusRead } from './status-read.js';
import { nextStepJSON, type StatusResultJSON } from './status-result.js';

export interface RefusedRun extends Omit<StatusRead, 'intent'> {
  readonly command: StatusIntent['command'];
  readonly error: CursorHooksError;
}

export type NextStepJSON = StatusResultJSON['nextStep'];

/** Null only where status itself cannot be read: the refusal is then reported without it. */
export async function refusalStep(run: RefusedRun): Promise<NextStepJSON | null> {
  const intent = { command: run.command, refused: run.error.reason };
  const status = await readCliStatus({ ...run, intent }).catch(() => undefined);
  if (status === undefined) return null;
  return nextStepJSON(status, run.ledger, contractFilesOf(run.options));
}
