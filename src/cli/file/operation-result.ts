// What an install, update, remove or repair run reports: one JSON object (schemas/
// operation-result.json) and the readable summary made from it.
import type { ReceiptJSON } from '../../domain/receipt.js';
import type { PendingResolution } from '../../node/ledger/fence.js';
import type {
  OperationCommand,
  OperationOutcome,
  OperationStatus,
} from '../../node/run-operation.js';
import type { Operation } from '../../planner/operation.js';
import type { ErrorJSON } from '../error-output.js';
import { unifiedDiff } from './diff.js';
import { failureJSON } from './failure.js';
import { type HostPathsJSON, hostPathLines } from './host-paths.js';
import { type MetadataJSON, metadataJSON, metadataWriteLine } from './metadata-result.js';
import type { NextStepJSON } from './refusal-step.js';
import { nextStepLines } from './status-result.js';

export interface OperationResultJSON {
  readonly status: OperationStatus;
  /** The command that ran, as the user typed it. */
  readonly command: OperationCommand;
  /** The lifecycle operation it ran (`remove` for disable, `install` for enable). */
  readonly operation: Operation;
  readonly dryRun: boolean;
  readonly hooksFile: string;
  readonly realPath: string | null;
  /** The hook file's bytes were (or, on a dry run, would be) changed. */
  readonly changed: boolean;
  readonly receipt: ReceiptJSON | null;
  readonly generation: number;
  readonly settled: PendingResolution | null;
  readonly hostPaths: HostPathsJSON | null;
  /** What the run's writes did (or would do) with the files' ACLs and extended attributes. */
  readonly metadata: MetadataJSON;
  /** The unified diff of what was (or would be) written; '' when nothing. */
  readonly diff: string;
  readonly error: ErrorJSON | null;
  /** For a refusal or failure, its way out, as status names it; null when the run succeeded. */
  readonly nextStep: NextStepJSON | null;
}

const TEXT = new TextDecoder();

export async function operationResult(
  outcome: OperationOutcome,
  hostPaths: HostPathsJSON | null,
  dryRun: boolean,
  nextStep: NextStepJSON | null = null,
): Promise<OperationResultJSON> {
  const changed = Buffer.compare(outcome.before, outcome.after) !== 0;
  return {
    status: outcome.status,
    command: outcome.command,
    operation: outcome.operation,
    dryRun,
    hooksFile: outcome.hooksFile,
    realPath: outcome.realPath ?? null,
    changed,
    receipt: outcome.receipt,
    generation: outcome.generation,
    settled: outcome.settled ?? null,
    hostPaths,
    metadata: metadataJSON(outcome.metadata),
    diff: changed
      ? await unifiedDiff(
          outcome.hooksFile,
          outcome.existed,
          TEXT.decode(outcome.before),
          TEXT.decode(outcome.after),
        )
      : '',
    error: outcome.error === undefined ? null : failureJSON(outcome.error),
    nextStep,
  };
}

const DONE: Readonly<Record<OperationStatus, string>> = {
  done: 'the hook file was written and the ledger committed',
  'no-op': 'the hook file already held this; nothing written to it',
  'dry-run': 'dry run: nothing was written; the diff shows what would be',
  refused: 'refused: nothing was written',
  failed: 'failed',
};

/**
 * The readable summary: what happened, where, the ledger, the checks, then the diff; headed by
 * the command the user ran (`disable` runs a remove, `enable` an install).
 */
export function operationText(result: OperationResultJSON, ledger: string): string {
  const lines = [`${result.command}: ${DONE[result.status]}`];
  if (result.error !== null) lines.push(`  ${result.error.message} [${result.error.reason}]`);
  lines.push(`hooks file: ${result.hooksFile}`);
  if (result.realPath !== null && result.realPath !== result.hooksFile) {
    lines.push(`  real path: ${result.realPath}`);
  }
  if (result.settled !== null) {
    lines.push(
      `an interrupted earlier write ${result.dryRun ? 'would be' : 'was'} settled ${result.settled === 'forward' ? 'forward (it had landed)' : 'back (it had not landed)'}`,
    );
  }
  lines.push(
    `ledger: ${ledger}, generation ${result.generation}${result.dryRun ? ' (unchanged: dry run)' : ''}`,
  );
  if (result.hostPaths !== null) lines.push(...hostPathLines(result.hostPaths));
  const metadata = metadataWriteLine(result.metadata, result.status === 'done');
  if (metadata !== undefined) lines.push(metadata);
  const diff = result.diff === '' ? '(no change to the hook file)' : result.diff.trimEnd();
  return `${[...lines, diff, ...nextStepLines(result.nextStep)].join('\n')}\n`;
}
