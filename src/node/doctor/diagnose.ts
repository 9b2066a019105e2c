// Room doctor/: read-only diagnosis across every hook source Cursor reads.
// `diagnoseHooks`: every hook source Cursor reads, told by adviseHooks, plus what only shows
// across files. Read-only: it writes nothing, takes no lock and leaves no side file; each file
// goes through the kit's bounded reader (a size cap, regular files only, never a FIFO).
import { acrossSources, type SourceInspection, workspaceOf } from '../../advice/across-sources.js';
import { inspectHooks, readingOf } from '../../advice/advise.js';
import {
  compareFindings,
  type Finding,
  type HookSource,
  type Severity,
  voidsOurs,
  worstSeverity,
} from '../../advice/findings.js';
import { finding, type Inspection } from '../../advice/inspection.js';
import type { ReceiptJSON } from '../../domain/receipt.js';
import { CursorHooksError } from '../../errors/errors.js';
import type { ErrorReason } from '../../errors/reasons.js';
import { defaultPlanner } from '../../planner/default.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import type { ShellContract } from '../../shell/contract.js';
import type { GrammarFamilyId } from '../../shell/families.js';
import { asHostError, isBug } from '../errors.js';
import { readLedger } from '../ledger/ledger.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { readFileSnapshot, resolveTarget } from '../write/read.js';
import { type SourceLocations, sourceFiles } from './sources.js';

export interface DiagnoseOptions extends SourceLocations {
  /** The host's ledger: its receipt for the user file names our command. */
  readonly ledger?: string;
  /** Contracts besides the built-in ones that the receipt may name. */
  readonly contracts?: readonly ShellContract[];
  /** The grammar family hooks are launched by, when no receipt says. */
  readonly family?: GrammarFamilyId;
  readonly fs?: FsSeam;
}

/** How one source was read; a path the caller gave, never anything from the file. */
export interface SourceReport {
  readonly source: HookSource;
  readonly workspace?: number;
  readonly path: string;
  readonly state: 'absent' | 'read' | 'unreadable';
  /** Why it could not be read. */
  readonly reason?: ErrorReason;
}

/**
 * none: no ledger, or no receipt for the user file; receipted: our command is known;
 * contract-unknown: the receipt's shell contract is not registered (pass its contract file);
 * receipt-unproven: the receipt does not render its own entry; ledger-unreadable: the ledger
 * could not be read. Without our command, owned-elsewhere and owned-missing cannot be told.
 */
export type OwnedKnowledge =
  | 'none'
  | 'receipted'
  | 'contract-unknown'
  | 'receipt-unproven'
  | 'ledger-unreadable';

export interface Diagnosis {
  /** Worst first, then by Cursor's order of sources. */
  readonly findings: readonly Finding[];
  readonly sources: readonly SourceReport[];
  readonly worst: Severity | null;
  /** Something voids the user file or our entry: doctor's exit 1. */
  readonly voided: boolean;
  readonly owned: OwnedKnowledge;
}

export async function diagnoseHooks(options: DiagnoseOptions = {}): Promise<Diagnosis> {
  const fs = options.fs ?? nodeFs;
  const files = sourceFiles(options);
  const userFile = files.find((file) => file.source === 'user')?.path as string;
  const { receipt, owned } = await receiptOf(options.ledger, userFile, fs);
  let reading = readingOf({ contracts: options.contracts ?? [], ...familyOf(options) });
  let knowledge = owned;
  if (receipt !== undefined) {
    try {
      reading = readingOf({ receipt, contracts: options.contracts ?? [], ...familyOf(options) });
    } catch (err) {
      if (!(err instanceof CursorHooksError)) throw err;
      knowledge = err.reason === 'shell-unsupported' ? 'contract-unknown' : 'receipt-unproven';
    }
  }
  const sources: SourceReport[] = [];
  const inspected: SourceInspection[] = [];
  for (const file of files) {
    const { source, workspace, path } = file;
    const place = { source, ...workspaceOf(workspace), path };
    const read = await readSource(path, fs);
    let inspection: Inspection;
    if ('reason' in read) {
      sources.push({ ...place, state: 'unreadable', reason: read.reason });
      inspection = { findings: [finding('source-unreadable', 'voids-file', source)], sites: [] };
    } else {
      sources.push({ ...place, state: read.bytes === undefined ? 'absent' : 'read' });
      inspection = inspectHooks(read.bytes, { ...reading, source });
    }
    inspected.push({ source, workspace, inspection });
  }
  const findings = [
    ...inspected.flatMap(({ workspace, inspection }) =>
      inspection.findings.map((found) => ({ ...found, ...workspaceOf(workspace) })),
    ),
    ...acrossSources(inspected, reading.ownedCommand),
  ]
    .map(withSentenceLast)
    .sort(compareFindings);
  return {
    findings,
    sources,
    worst: worstSeverity(findings),
    voided: voidsOurs(findings),
    owned: knowledge,
  };
}

/** The contracts `planner` knows beyond the built-in ones: what `contracts` takes. */
export function addedContracts(planner: Pick<HookPlanner, 'contracts'>): ShellContract[] {
  const builtin = new Set(
    defaultPlanner()
      .contracts()
      .map((contract) => contract.id),
  );
  return planner.contracts().filter((contract) => !builtin.has(contract.id));
}

/** The family option, when given. */
const familyOf = (options: DiagnoseOptions) =>
  options.family === undefined ? {} : { family: options.family };

/** The receipt the ledger holds for the user file, keyed by the file's real path. */
async function receiptOf(
  ledger: string | undefined,
  userFile: string,
  fs: FsSeam,
): Promise<{ receipt: ReceiptJSON | undefined; owned: OwnedKnowledge }> {
  if (ledger === undefined) return { receipt: undefined, owned: 'none' };
  try {
    const { records } = await readLedger(ledger, { fs });
    const receipt = records.get(await resolveTarget(userFile, fs))?.receipt ?? undefined;
    return { receipt, owned: receipt === undefined ? 'none' : 'receipted' };
  } catch (err) {
    if (isBug(err)) throw err;
    return { receipt: undefined, owned: 'ledger-unreadable' };
  }
}

/** The file's bytes (undefined when absent), or why it could not be read. */
async function readSource(
  path: string,
  fs: FsSeam,
): Promise<{ bytes: Uint8Array | undefined } | { reason: ErrorReason }> {
  try {
    const snapshot = await readFileSnapshot(path, fs);
    return { bytes: snapshot.exists ? snapshot.bytes : undefined };
  } catch (err) {
    if (isBug(err)) throw err;
    return { reason: asHostError(err).reason };
  }
}

/** The sentence stays the last member, whatever was added after it was made. */
function withSentenceLast({ sentence, ...rest }: Finding): Finding {
  return { ...rest, sentence };
}
