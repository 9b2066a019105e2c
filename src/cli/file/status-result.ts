// What `status` reports: the kit's readStatus, plus the host path checks of the receipted (or
// given) spec and the shell contract's evidence (schemas/status-result.json).
import type { HookSpec } from '../../domain/hook-spec.js';
import type { PendingResolution } from '../../node/ledger/fence.js';
import type { LedgerRecord } from '../../node/ledger/ledger.js';
import type { RecordedContractFile } from '../../node/status/contract-file.js';
import type { LastStop, LivenessState } from '../../node/status/liveness.js';
import type { EntryLocation, FileProblem, HookStatus } from '../../node/status/status.js';
import type { QualificationEvidence } from '../../shell/contract.js';
import { type HostPathsJSON, hostPathLines } from './host-paths.js';
import { type MetadataJSON, metadataJSON, metadataStatusLine } from './metadata-result.js';

export interface StatusResultJSON {
  readonly hooksFile: string;
  readonly realPath: string | null;
  readonly file: FileJSON;
  readonly owned: {
    readonly state: string;
    readonly repairable: boolean;
    readonly reason: string | null;
    readonly unowned: readonly EntryLocation[];
  };
  readonly ledger: {
    readonly path: string;
    readonly state: string;
    readonly reason: string | null;
    readonly refused: { readonly role: string; readonly path: string } | null;
    readonly record: LedgerRecord | null;
    readonly generation: number;
    readonly pending: PendingResolution | null;
  };
  /** Whose paths were checked: the spec given on the command line, or the receipted one. */
  readonly checkedSpec: { readonly source: 'given' | 'receipt'; readonly spec: HookSpec } | null;
  readonly hostPaths: HostPathsJSON | null;
  /** The contract the given or receipted shell id names; evidence null when none is registered. */
  readonly contract: {
    readonly id: string;
    readonly evidence: QualificationEvidence | null;
  } | null;
  /**
   * The contract file the ledger keeps for the receipt (install --contract-file): found (its
   * bytes unchanged, registered when no --contract-file is given), missing, changed (never used)
   * or unreadable; null when none is recorded.
   */
  readonly contractFile: RecordedContractFile | null;
  readonly locks: readonly {
    readonly role: string;
    readonly path: string;
    readonly state: string;
    readonly holder: {
      readonly pid: number;
      readonly hostname: string;
      readonly acquiredAt: string;
    } | null;
  }[];
  readonly metadata: MetadataJSON;
  /** Both present only when the ledger keeps a heartbeat (install --heartbeat). */
  readonly heartbeat?: {
    readonly path: string;
    readonly installedAt: string;
    readonly state: LivenessState;
    readonly reason: string | null;
    readonly stops: number | null;
  };
  readonly lastStop?: LastStop | null;
  /** What doctor finds; `command` runs it, given when something voids ours or fires it twice. */
  readonly doctor: {
    readonly findings: number;
    readonly worst: string | null;
    readonly command: string | null;
  };
  readonly nextStep: {
    readonly code: string;
    /** The cursorhooks command line to run next; null when the step is a hand edit or nothing. */
    readonly command: string | null;
    /** For make-directory-writable: the directory that refuses new files. */
    readonly directory?: string;
    readonly sentence: string;
  };
}

interface FileJSON {
  readonly state: string;
  readonly reason: string | null;
  /** Where in the document a refusal about one place is. */
  readonly at: { readonly offset: number; readonly line: number; readonly column: number } | null;
  /** For a file-system refusal: the path refused and which file it is. */
  readonly refused: { readonly role: string; readonly path: string } | null;
}

/** Role and path of a file-system refusal, when the kit named them. */
function refusedAt(problem: FileProblem): FileJSON['refused'] {
  return problem.role === undefined || problem.path === undefined
    ? null
    : { role: problem.role, path: problem.path };
}

export function statusResult(
  status: HookStatus,
  ledgerPath: string,
  checked: StatusResultJSON['checkedSpec'],
  hostPaths: HostPathsJSON | null,
  contract: StatusResultJSON['contract'],
  contractFiles: readonly string[] = [],
): StatusResultJSON {
  const { file, owned, ledger } = status;
  return {
    hooksFile: status.hooksFile,
    realPath: status.realPath ?? null,
    file: {
      state: file.state,
      reason: file.reason ?? null,
      at: file.at ?? null,
      refused: refusedAt(file),
    },
    owned: {
      state: owned.state,
      repairable: owned.repairable,
      reason: owned.reason ?? null,
      unowned: owned.unowned,
    },
    ledger: {
      path: ledgerPath,
      state: ledger.state,
      reason: ledger.reason ?? null,
      refused: refusedAt(ledger),
      record: ledger.record ?? null,
      generation: ledger.generation,
      pending: ledger.pending ?? null,
    },
    checkedSpec: checked,
    hostPaths,
    contract,
    contractFile: status.contractFile,
    locks: status.locks.map(({ role, path, state, holder }) => ({
      role,
      path,
      state,
      holder: holder ?? null,
    })),
    metadata: metadataJSON(status.metadata),
    ...livenessJSON(status),
    doctor: {
      findings: status.doctor.findings,
      worst: status.doctor.worst,
      command: status.doctor.pointsAtDoctor ? doctorLine(status, ledgerPath) : null,
    },
    nextStep: nextStepJSON(status, ledgerPath, contractFiles),
  };
}

/** The next step as printed: its code, the command line that runs as it stands, its sentence. */
export function nextStepJSON(
  status: HookStatus,
  ledgerPath: string,
  contractFiles: readonly string[],
): StatusResultJSON['nextStep'] {
  const { code, command, directory, sentence } = status.nextStep;
  return {
    code,
    command: command === null ? null : commandLine(command, status, ledgerPath, contractFiles),
    ...(directory === undefined ? {} : { directory }),
    sentence,
  };
}

function livenessJSON(status: HookStatus): Pick<StatusResultJSON, 'heartbeat' | 'lastStop'> {
  const { liveness } = status;
  if (liveness === undefined) return {};
  const { path, installedAt, state, reason, stops, lastStop } = liveness;
  return {
    heartbeat: { path, installedAt, state, reason: reason ?? null, stops: stops ?? null },
    lastStop,
  };
}

/**
 * The next command as a line to run: the same files, the contract files, and the spec and shell
 * status says it needs; null for an install or update whose spec only the host knows. Quoted for
 * a POSIX shell: the one place this project writes a shell line, for a person to paste.
 */
function commandLine(
  command: string,
  status: HookStatus,
  ledgerPath: string,
  contractFiles: readonly string[],
): string | null {
  const { qualify } = status.nextStep;
  if (qualify !== undefined) {
    const { family, stateDir } = qualify;
    const words = ['cursorhooks', 'qualify', 'start', '--hooks-file', status.hooksFile];
    return [...words, '--family', family, '--state-dir', stateDir].map(quoteWord).join(' ');
  }
  const words = ['cursorhooks', command, '--hooks-file', status.hooksFile, '--ledger', ledgerPath];
  const known = status.nextStep.with;
  if (known !== null) {
    const { spec, shell } = known;
    words.push('--executable', spec.executable, '--selector', spec.selector, '--shell', shell);
  } else if (command === 'install' || command === 'update') {
    return null;
  }
  for (const path of contractFiles) words.push('--contract-file', path);
  // Only when status itself was given the flag: status never advises losing them.
  if (status.metadata.writes === 'accept-loss') words.push('--accept-metadata-loss');
  return words.map(quoteWord).join(' ');
}

/** The doctor run over the same files; the workspaces status was not told of stay unread. */
function doctorLine(status: HookStatus, ledgerPath: string): string {
  const words = ['cursorhooks', 'doctor', '--hooks-file', status.hooksFile, '--ledger', ledgerPath];
  return words.map(quoteWord).join(' ');
}

export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

const CONTRACT_FILE_WORDS: Readonly<Record<RecordedContractFile['state'], string>> = {
  found: 'found, unchanged since the install',
  missing: 'missing: not at the recorded path',
  changed: 'changed since the install: not used',
  unreadable: 'unreadable: not used',
};

const because = (reason: string | null) => (reason === null ? '' : ` (${reason})`);
const at = (refused: FileJSON['refused']) =>
  refused === null ? '' : `; the ${refused.role} path refused: ${refused.path}`;

export function statusText(result: StatusResultJSON): string {
  const { file, owned, ledger, contract } = result;
  const lines = [`hooks file: ${result.hooksFile}`];
  if (result.realPath !== null && result.realPath !== result.hooksFile) {
    lines.push(`  real path: ${result.realPath}`);
  }
  const where =
    file.at == null
      ? ''
      : ` at line ${file.at.line}, column ${file.at.column} (byte ${file.at.offset})`;
  lines.push(`  file: ${file.state}${because(file.reason)}${where}${at(file.refused)}`);
  lines.push(
    `  owned entry: ${owned.state}${because(owned.reason)}${owned.repairable ? ', repairable' : ''}`,
  );
  for (const { event, index } of owned.unowned) {
    lines.push(`  unowned entry running this host's command: hooks.${event}[${index}]`);
  }
  lines.push(
    `ledger: ${ledger.path}: ${ledger.state}${because(ledger.reason)}${at(ledger.refused)}`,
  );
  if (ledger.record !== null) {
    const { receipt, removed, pending } = ledger.record;
    lines.push(
      `  generation ${ledger.generation}; ${receipt === null ? (removed === null ? 'no receipt' : `removed at generation ${removed.generation}`) : `receipt for shell ${receipt.shell}`}`,
    );
    lines.push(
      pending === null
        ? '  no pending write'
        : `  pending ${pending.operation} write: the next run settles it ${ledger.pending ?? 'unknown'}`,
    );
  }
  if (result.checkedSpec !== null && result.hostPaths !== null) {
    const { spec, source } = result.checkedSpec;
    lines.push(
      `checked spec (${source === 'given' ? 'given' : 'receipted'}): ${spec.executable} | ${spec.selector}`,
    );
    lines.push(...hostPathLines(result.hostPaths));
  }
  if (contract !== null) {
    const { evidence } = contract;
    lines.push(
      evidence === null
        ? `contract: ${contract.id}: not registered`
        : `contract: ${contract.id}: qualified on ${evidence.client} ${evidence.version}, ${[evidence.platform, evidence.arch].filter((part) => part !== null).join('/')}${evidence.date === null ? '' : `, ${evidence.date}`} (${evidence.observed.length} facts observed, ${evidence.notObserved.length} not observed; see cursorhooks contracts)`,
    );
  }
  if (result.contractFile !== null) {
    const { path, id, state } = result.contractFile;
    lines.push(`contract file: ${path} (contract ${id}): ${CONTRACT_FILE_WORDS[state]}`);
  }
  for (const lock of result.locks) {
    const by =
      lock.holder === null
        ? 'a file that is not a cursorhooks lock record'
        : `pid ${lock.holder.pid} on ${lock.holder.hostname} since ${lock.holder.acquiredAt}`;
    // A held name that is no lock record is refused (lock-foreign), never waited for.
    lines.push(
      lock.state === 'stale'
        ? `lock: ${lock.path}: stale (${by}, no longer running): the next command recovers it`
        : lock.holder === null
          ? `lock: ${lock.path}: holds ${by}: commands refuse it; remove it if no cursorhooks process is running`
          : `lock: ${lock.path}: held by ${by}: commands wait for it`,
    );
  }
  const metadata = metadataStatusLine(result.metadata);
  if (metadata !== undefined) lines.push(metadata);
  lines.push(...heartbeatLines(result), ...doctorLines(result));
  lines.push(...nextStepLines(result.nextStep));
  return `${lines.join('\n')}\n`;
}

/** The `next step:` line and, under it, the command line when there is one. */
export function nextStepLines(step: StatusResultJSON['nextStep'] | null): string[] {
  if (step === null) return [];
  // The sentence of make-directory-writable speaks of the directory named above it.
  const lines = step.directory === undefined ? [] : [`directory not writable: ${step.directory}`];
  lines.push(`next step: ${step.code}: ${step.sentence}`);
  if (step.command !== null) lines.push(`  ${step.command}`);
  return lines;
}

function doctorLines({ doctor }: StatusResultJSON): string[] {
  if (doctor.findings === 0) return [];
  const counted = `${doctor.findings} finding${doctor.findings === 1 ? '' : 's'}`;
  if (doctor.command === null) return [`hook sources: ${counted}, worst: ${doctor.worst}`];
  return [
    `hook sources: ${counted}, worst: ${doctor.worst}: something voids this host's entry or runs it twice; doctor says where (it never writes)`,
    `  ${doctor.command}`,
  ];
}

function heartbeatLines({ heartbeat, lastStop }: StatusResultJSON): string[] {
  if (heartbeat === undefined) return [];
  const head = `heartbeat: ${heartbeat.path} (installed ${heartbeat.installedAt})`;
  if (heartbeat.state === 'unreadable') {
    return [head, `  unreadable${because(heartbeat.reason)}: nothing in it is trusted`];
  }
  if (heartbeat.state === 'directory-missing') {
    return [head, `  its directory is gone${because(heartbeat.reason)}: no stop can be recorded`];
  }
  if (lastStop == null) return [head, '  no stop seen since the install'];
  const fields = [
    `Cursor ${lastStop.cursorVersion === null ? 'version not reported' : JSON.stringify(lastStop.cursorVersion)}`,
    `verdict ${lastStop.verdict ?? 'none'}`,
    `status ${lastStop.status ?? 'none'}`,
    `loop ${lastStop.loopCount ?? 'none'}`,
  ];
  const by = lastStop.simulated === true ? ', simulated by simulate-stop, not run by Cursor' : '';
  return [
    head,
    `  last stop ${lastStop.at} (${heartbeat.stops} in all${by}): ${fields.join(', ')}`,
  ];
}
