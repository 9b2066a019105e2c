// Room status/: read-only answers: a hook file's state, the host path checks, the heartbeat's word.
// What state a hook file, its owned entry and the host's ledger record are in, and the one next
// step that leaves that state. It reads only: nothing is locked, settled or written.
import { dirname, join } from 'node:path';
import type { Finding, Severity } from '../../advice/findings.js';
import { HookDocument } from '../../domain/hook-document.js';
import type { HookSpec } from '../../domain/hook-spec.js';
import type { ReceiptJSON } from '../../domain/receipt.js';
import { CursorHooksError, type DocumentPosition } from '../../errors/errors.js';
import type { ErrorReason } from '../../errors/reasons.js';
import { defaultPlanner } from '../../planner/default.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import { Operation } from '../../planner/operation.js';
import { grammarFamily } from '../../shell/families.js';
import { stopArgv } from '../../shell/stop-invocation.js';
import { addedContracts, diagnoseHooks } from '../doctor/diagnose.js';
import type { SourceLocations } from '../doctor/sources.js';
import { aboutFile, type FileRole, HostIOError } from '../errors.js';
import { decidePending, type PendingResolution, settle } from '../ledger/fence.js';
import {
  EMPTY_RECORD,
  knownContractFile,
  type LedgerRecord,
  readLedger,
} from '../ledger/ledger.js';
import { inspectLock, type LockInspection } from '../lock/lock.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { type MetadataCheck, metadataCheck } from '../write/metadata.js';
import { isReadOnly, readFileSnapshot, resolveTarget } from '../write/read.js';
import { lookAtContractFile, type RecordedContractFile } from './contract-file.js';
import { type Liveness, readLiveness } from './liveness.js';
import type { HostPathChecker, HostPathReport } from './path-report.js';
import { unwritableDirectory } from './writable-directory.js';

/** empty: the file exists with no bytes, planned on as an absent one (after a second look). */
export type FileState = 'absent' | 'empty' | 'valid' | 'refused';

/**
 * owned: intact, rest unchanged; remainder-drift: intact, foreign edits elsewhere;
 * absent: the entry is gone; modified, duplicated, outside-stop: the entry was edited by hand;
 * not-installed / removed / released: the ledger holds no receipt; disabled: the user turned
 * the hook off (`disable`), kept until `enable`; unknown: the file cannot be read.
 */
export type OwnedState =
  | 'owned'
  | 'remainder-drift'
  | 'absent'
  | 'modified'
  | 'duplicated'
  | 'outside-stop'
  | 'not-installed'
  | 'removed'
  | 'released'
  | 'disabled'
  | 'unknown';

/**
 * The one step that leaves the reported state. `finish` repeats an interrupted operation, which
 * settles its pending write first; `review-entry` is a hand edit of the entries `unowned` names.
 */
export type NextStep =
  | 'none'
  | 'install'
  | 'update'
  | 'enable'
  | 'refresh'
  | 'repair'
  | 'finish'
  | 'release'
  | 'review-entry'
  | 'register-contract'
  | 'fix-file'
  | 'fix-host-paths'
  | 'fix-ledger'
  | 'fix-metadata-module'
  | 'remove-lock'
  | 'make-writable'
  | 'make-directory-writable'
  | 'requalify'
  | 'fix-heartbeat-path';

export const NEXT_STEP_SENTENCES: Readonly<Record<NextStep, string>> = {
  none: 'nothing to do: the owned entry is in place',
  install:
    "run install (with the host's --executable, --selector and --shell): nothing of ours is recorded for this file",
  update:
    'run update with the spec given: the entry is ours, recorded with another spec or shell, and update moves it to this one',
  enable:
    'run enable: the user turned this hook off with disable, and only enable turns it back on; run it only if the user wants it on',
  refresh:
    'run install again with the same spec: the entry is intact, and it accepts the edits made elsewhere and refreshes the receipt',
  repair:
    'run repair: the entry is missing and nothing else changed, so it can be put back; or, if it was deleted on purpose, run disable to keep it off',
  finish:
    'run the interrupted operation again: it settles the interrupted write by what the file holds, then finishes',
  release:
    'run release: the owned entry was edited, or removed alongside other edits, so no command can prove what it is; release ends ownership and leaves the file as it is',
  'review-entry':
    "the entries listed under unowned run this host's command but nobody owns them: delete them and run install to own one, or keep them, and they stay the user's",
  'register-contract':
    "pass the contract file (--contract-file) that qualified the ledger's shell contract: without it nothing of ours can be verified",
  'fix-file':
    'fix the hook file named above (see the reason), or restore it: it cannot be read or edited safely',
  'fix-host-paths':
    'fix the host path that failed its check (named first in a refusal, and in the host path checks status lists), or give --vouch-unperformed-checks for checks this platform cannot perform, then run the command again',
  'make-writable':
    'the hook file is read-only, and the step it needs would refuse it (file-read-only): make it writable (chmod u+w) if the change is wanted, then run status again',
  'make-directory-writable':
    'the directory named above does not let this user create files in it, and the step it needs would refuse it (directory-not-writable): make it writable (chmod u+w on that directory) if the change is wanted, then run status again',
  'remove-lock':
    'remove the lock file named above if no cursorhooks process is running: it is not a cursorhooks lock record, so no cursorhooks process will remove it, and every write refuses it (lock-foreign)',
  'fix-metadata-module':
    'make the optional @napi-rs/xattr module load (reinstall cursorhooks with its optional dependencies), then run status again: without it a write cannot see the ACLs and extended attributes of the files it replaces, and refuses unless given --accept-metadata-loss',
  'fix-ledger':
    'fix or move the ledger named above (see the reason): it cannot be read, and it is never overwritten',
  requalify:
    "the last stop came from another Cursor version than the shell contract's: qualify this build (qualify start, finish one agent turn in Cursor, qualify finish), then run update with the record as --contract-file",
  'fix-heartbeat-path':
    'the stop observer can never write the heartbeat file: its directory does not exist or is not a directory, or the path names a directory; create the directory, or run install again with --heartbeat naming a file in an existing directory (and give the observer the same path)',
};

/** The command that carries out each step; null where the step is a hand edit or nothing. */
export const STEP_COMMANDS: Readonly<Record<NextStep, string | null>> = {
  none: null,
  install: 'install',
  update: 'update',
  enable: 'enable',
  refresh: 'install',
  repair: 'repair',
  finish: null,
  release: 'release',
  'review-entry': null,
  'register-contract': null,
  'fix-file': null,
  'fix-host-paths': null,
  'fix-ledger': null,
  'fix-metadata-module': null,
  'remove-lock': null,
  'make-writable': null,
  'make-directory-writable': null,
  requalify: 'qualify start',
  'fix-heartbeat-path': null,
};

/** An entry, by event and index, whose command is one this host renders (never its values). */
export interface EntryLocation {
  readonly event: string;
  readonly index: number;
}

/** Why a file could not be read; for a file-system refusal, which file and where. */
export interface FileProblem {
  readonly reason: ErrorReason | undefined;
  readonly role: FileRole | undefined;
  /** The path refused: the file itself, a parent directory or a side file. */
  readonly path: string | undefined;
}

export interface HookStatus {
  readonly hooksFile: string;
  readonly realPath: string | undefined;
  readonly file: FileProblem & {
    readonly state: FileState;
    /** For a refusal about one place in the document (a stray comma…): where it is. */
    readonly at: DocumentPosition | undefined;
  };
  readonly owned: {
    readonly state: OwnedState;
    /** Repair would put the entry back (it is absent and nothing else changed). */
    readonly repairable: boolean;
    readonly reason: ErrorReason | undefined;
    /** Entries holding a command of ours that no receipt owns (after a release, or by hand). */
    readonly unowned: readonly EntryLocation[];
  };
  readonly ledger: FileProblem & {
    readonly state: 'absent' | 'valid' | 'refused';
    /** The ledger's real path, where its lock lives; undefined if even that cannot be found. */
    readonly realPath: string | undefined;
    /** This hook file's record as stored (pending included); undefined if none. */
    readonly record: LedgerRecord | undefined;
    readonly generation: number;
    /** How the next run will settle the record's pending write, if it has one. */
    readonly pending: PendingResolution | undefined;
  };
  /**
   * The locks beside the hook file and the ledger that exist now: `held` by a live process (a
   * command waits for it), or `stale` (the next command recovers it).
   */
  readonly locks: readonly (LockInspection & { readonly role: 'hook-file' | 'ledger' })[];
  /**
   * What a write replacing the file does with its ACLs and extended attributes, from the same
   * decision the writer takes: not performed where Node cannot see them, and then `writes` says
   * whether a write refuses, drops them as accepted, or (Windows) goes ahead unchecked.
   */
  readonly metadata: MetadataCheck;
  /**
   * What the heartbeat file says (`install --heartbeat`); present only when the ledger record
   * keeps one.
   */
  readonly liveness?: Liveness;
  /** The host path checks of the spec given, else the receipted one, when asked for. */
  readonly hostPaths?: {
    readonly source: 'given' | 'receipt';
    readonly spec: HookSpec;
    readonly report: HostPathReport;
  };
  /**
   * The contract file the ledger keeps for a receipt of this record (install --contract-file)
   * and whether it still holds the bytes it was recorded with; null when none is recorded.
   */
  readonly contractFile: RecordedContractFile | null;
  /**
   * What doctor finds in every hook source Cursor reads (the user file, the enterprise file,
   * Claude Code's user settings, and the workspaces given): how many findings, the worst, and
   * whether doctor is worth running: something voids the user file or our entry, or makes it
   * fire twice.
   */
  readonly doctor: {
    readonly findings: number;
    readonly worst: Severity | null;
    readonly pointsAtDoctor: boolean;
  };
  readonly nextStep: {
    readonly code: NextStep;
    /** The cursorhooks command to run (`install`, `repair`, `release`, …); null for a hand edit. */
    readonly command: string | null;
    /**
     * For install and update, the spec and shell to run it with: for `finish`, the interrupted
     * write's own; else the receipted, released or removed one. Null when the command takes its
     * spec from the ledger, or none is known.
     */
    readonly with: { readonly spec: HookSpec; readonly shell: string } | null;
    /** For `make-directory-writable`: the directory that refuses the step's new files. */
    readonly directory?: string;
    /** For `requalify`: the grammar family to qualify and a state directory beside the ledger. */
    readonly qualify?: { readonly family: string; readonly stateDir: string };
    readonly sentence: string;
  };
}

/** What status asks of a planner: the one that knows the receipts' shell contracts. */
export type StatusPlanner = Pick<HookPlanner, 'plan' | 'verifyOwned' | 'renderArgv' | 'contracts'>;

export interface StatusOptions {
  readonly hooksFile: string;
  readonly ledger: string;
  readonly fs?: FsSeam;
  /** The planner that knows the receipt's contract (default: the built-in contracts only). */
  readonly planner?: StatusPlanner;
  /** A spec and shell the host would install: entries already running it are listed unowned. */
  readonly spec?: HookSpec;
  readonly shell?: string;
  /** Report the writes of a host that passes `acceptMetadataLoss` to them. */
  readonly acceptMetadataLoss?: boolean;
  /** Where doctor's other sources are (default: the user's home, no workspace). */
  readonly sources?: Omit<SourceLocations, 'hooksFile'>;
  /** The command that was refused and why: the step then points where the user was going. */
  readonly intent?: StatusIntent;
  /**
   * Checks the spec given, else the receipted one, on this host: a failed check makes the step
   * `fix-host-paths` wherever the entry runs it or the step's write would refuse it.
   */
  readonly checkHostPaths?: HostPathChecker;
}

/** A refused file-level command, by the name the user ran it under, and its refusal. */
export interface StatusIntent {
  readonly command: 'install' | 'update' | 'remove' | 'repair' | 'release' | 'disable' | 'enable';
  readonly refused: ErrorReason;
}

/** Refusals whose way out is one step whatever the state: what makes the refused aim reachable. */
export const REFUSAL_STEPS: Partial<Record<ErrorReason, NextStep>> = {
  'spec-mismatch': 'update',
  'shell-mismatch': 'update',
  'command-exists': 'review-entry',
  'command-collision': 'review-entry',
  'executable-unverified': 'fix-host-paths',
  'disabled-by-user': 'enable',
  'file-read-only': 'make-writable',
  'directory-not-writable': 'make-directory-writable',
  'lock-foreign': 'remove-lock',
  'metadata-not-preserved': 'fix-metadata-module',
  'heartbeat-directory-missing': 'fix-heartbeat-path',
  'heartbeat-is-directory': 'fix-heartbeat-path',
  'heartbeat-directory-not-writable': 'fix-heartbeat-path',
};

/** The state's step, pointed at the refused command's aim. */
function aimedAt(intent: StatusIntent | undefined, step: NextStep): NextStep {
  if (intent === undefined) return step;
  const own = REFUSAL_STEPS[intent.refused];
  if (own !== undefined) return own;
  // Uninstalling: an entry already gone is never put back; ownership ends instead.
  return uninstalling(intent) && step === 'repair' ? 'release' : step;
}

const uninstalling = (intent: StatusIntent | undefined) =>
  intent?.command === 'remove' || intent?.command === 'disable';

/** `release` for a remove whose entry is already gone (even with its directory deleted). */
export const GONE_SENTENCE =
  'run release: the entry is already gone from the hook file, so there is nothing to remove; release ends ownership, and nothing puts the entry back';

export async function readStatus(options: StatusOptions): Promise<HookStatus> {
  const fs = options.fs ?? nodeFs;
  const planner = options.planner ?? defaultPlanner();
  let realPath: string | undefined;
  let bytes: Uint8Array | undefined;
  let file: HookStatus['file'];
  let readOnly = false;
  try {
    realPath = await resolveTarget(options.hooksFile, fs);
    const snapshot = await readFileSnapshot(options.hooksFile, fs);
    bytes = snapshot.bytes;
    readOnly = isReadOnly(snapshot);
    HookDocument.read(bytes);
    const state = !snapshot.exists ? 'absent' : bytes.length === 0 ? 'empty' : 'valid';
    file = { state, reason: undefined, role: undefined, path: undefined, at: undefined };
  } catch (err) {
    bytes = undefined;
    const at = err instanceof CursorHooksError ? err.at : undefined;
    file = { state: 'refused', ...problemOf(err, 'hook-file', options.hooksFile), at };
  }
  const ledger = await ledgerStatus(options.ledger, realPath, bytes, fs, planner);
  const locks = [
    ...(await lockOf('hook-file', realPath, fs)),
    ...(await lockOf('ledger', ledger.realPath, fs)),
  ];
  // The record as the next run will see it once its pending write, if any, is settled.
  const effective =
    ledger.record === undefined ? EMPTY_RECORD : settle(ledger.record, ledger.pending ?? 'back');
  const owned =
    bytes === undefined
      ? { state: 'unknown' as const, repairable: false, reason: file.reason, unowned: [] }
      : ownedStatus(bytes, effective, planner, options);
  const registered = new Set(planner.contracts().map((contract) => contract.id));
  const unknownShell = recordShells(ledger.record).some((shell) => !registered.has(shell));
  const contractFile = await recordedContractFile(ledger.record, fs);
  const metadata = await metadataCheck(fs, options);
  const liveness =
    effective.heartbeat === null ? undefined : await readLiveness(effective.heartbeat, fs);
  const settled = unknownShell ? 'register-contract' : nextStep(file.state, ledger, owned);
  // A write the step names would refuse: the way out is what makes it run.
  const writes = stepCommand(settled, ledger);
  const foreignLock = writes !== null && locks.some(isForeign);
  // Every command but release writes the hook file, and refuses a read-only one.
  const writesHooks = writes !== null && writes !== 'release';
  const lockedFile = readOnly && writesHooks;
  const hostPaths = await checkedPaths(options, effective);
  // A path that failed its check breaks the entry where it runs, and refuses a write that adds it.
  const brokenPath =
    hostPaths?.report.checks.some((check) => check.status === 'failed') === true &&
    (settled === 'none' ? owned.state === 'owned' : writesHooks && writes !== 'remove');
  // Every write adds side files beside the ledger, and all but release beside the hook file.
  const unwritable =
    writes === null
      ? undefined
      : await unwritableDirectory(
          [
            ...(writesHooks ? [dirname(realPath ?? options.hooksFile)] : []),
            dirname(ledger.realPath ?? options.ledger),
          ],
          fs,
        );
  // In the order a write meets them: the first that holds is the step's way out.
  const obstacles: readonly (readonly [boolean, NextStep])[] = [
    [foreignLock, 'remove-lock'],
    [unwritable !== undefined, 'make-directory-writable'],
    [lockedFile, 'make-writable'],
    [refusedForMetadata(settled, metadata, file.state, ledger), 'fix-metadata-module'],
    [brokenPath, 'fix-host-paths'],
  ];
  const step = aimedAt(options.intent, obstacles.find(([holds]) => holds)?.[1] ?? settled);
  const qualify = step === 'none' ? requalifying(effective, liveness, planner) : undefined;
  // Nothing else to do, and the observer can record no stop: the heartbeat is what to fix.
  const heartbeatGone = step === 'none' && liveness?.state === 'directory-missing';
  const stepped = heartbeatGone ? 'fix-heartbeat-path' : qualify === undefined ? step : 'requalify';
  const family = qualify?.family;
  const steppedCommand =
    stepped === 'requalify' && (family === undefined || !qualifiesHere(family))
      ? null
      : stepCommand(stepped, ledger);
  // `update` moves the entry to the spec given; every other write repeats a known one.
  const known =
    steppedCommand !== 'install' && steppedCommand !== 'update'
      ? null
      : stepped === 'update'
        ? givenSpec(options)
        : (knownSpec(ledger.record, stepped) ?? givenSpec(options));
  // A line rendering through a contract not registered here would refuse: registering comes first.
  const unrendered = known !== null && !registered.has(known.shell);
  const code = unrendered ? 'register-contract' : stepped;
  const command = unrendered ? null : steppedCommand;
  const stateDir = join(dirname(ledger.realPath ?? options.ledger), QUALIFY_STATE_DIRECTORY);
  const diagnosis = await diagnoseHooks({
    ...options.sources,
    hooksFile: options.hooksFile,
    ledger: options.ledger,
    contracts: addedContracts(planner),
    fs,
  });
  return {
    hooksFile: options.hooksFile,
    realPath,
    file,
    owned,
    ledger,
    locks,
    metadata,
    ...(liveness === undefined ? {} : { liveness }),
    ...(hostPaths === undefined ? {} : { hostPaths }),
    contractFile,
    doctor: {
      findings: diagnosis.findings.length,
      worst: diagnosis.worst,
      pointsAtDoctor: diagnosis.voided || diagnosis.findings.some(firesOurs),
    },
    nextStep: {
      code,
      command,
      with: unrendered ? null : known,
      ...(command === null || family === undefined ? {} : { qualify: { family, stateDir } }),
      ...(code === 'make-directory-writable' && unwritable !== undefined
        ? { directory: unwritable }
        : {}),
      sentence: sentenceOf(
        code,
        owned,
        options.intent,
        registered.has(contractFile?.id ?? '') ? null : contractFile,
      ),
    },
  };
}

/** The checks of the spec given, else of the receipt the next run will see; undefined unasked. */
async function checkedPaths(
  options: StatusOptions,
  effective: LedgerRecord,
): Promise<HookStatus['hostPaths']> {
  const { checkHostPaths } = options;
  const given = options.spec;
  const spec = given ?? effective.receipt?.spec;
  if (checkHostPaths === undefined || spec === undefined) return undefined;
  return {
    source: given === undefined ? 'receipt' : 'given',
    spec,
    report: await checkHostPaths(spec),
  };
}

/** A finding that makes our own entry run twice (a copy in another source, or in the file). */
const firesOurs = (finding: Finding) => finding.severity === 'fires-twice' && finding.ours === true;

/** What became of a recorded contract file whose contract is not registered. */
export const CONTRACT_FILE_SENTENCES = {
  missing:
    'the contract file the entry was installed with is no longer where the ledger recorded it (moved or deleted): pass the record at its new place with --contract-file, and the command records the new place',
  changed:
    'the contract file the entry was installed with has changed since (its SHA-256 differs), so its grammar is not trusted: pass the record the entry was installed with as --contract-file, or run update with the new record as --contract-file',
  unreadable:
    'the contract file the entry was installed with cannot be read: make it readable again, or pass the record with --contract-file',
} as const;

/** The step's sentence; a few states say why in their own words. */
function sentenceOf(
  code: NextStep,
  owned: HookStatus['owned'],
  intent: StatusIntent | undefined,
  unregistered: RecordedContractFile | null,
): string {
  if (code === 'release' && owned.state === 'absent' && uninstalling(intent)) return GONE_SENTENCE;
  if (code === 'register-contract' && unregistered !== null && unregistered.state !== 'found') {
    return CONTRACT_FILE_SENTENCES[unregistered.state];
  }
  if (code !== 'none') return NEXT_STEP_SENTENCES[code];
  if (owned.state === 'disabled') return DISABLED_SENTENCE;
  const kept = owned.state === 'released' && owned.unowned.length > 0;
  return kept ? KEPT_SENTENCE : NEXT_STEP_SENTENCES.none;
}

/** `none` while the user's "off" holds: nothing is wrong, and only enable changes it. */
export const DISABLED_SENTENCE =
  'nothing to do: the user turned this hook off with disable; run enable to turn it back on';

/** `none` after a release that left entries running our command: the user kept them. */
export const KEPT_SENTENCE =
  "nothing to do: since release, the entries listed under unowned are the user's; delete them, then run install, for this host to own one again";

/** Where a printed `qualify start` keeps its probe: a directory of its own beside the ledger. */
export const QUALIFY_STATE_DIRECTORY = 'cursorhooks-qualify';

/**
 * Set when the last stop since the install, one Cursor ran, came from another version than the
 * receipted contract's evidence: the contract's family (undefined when it names none) is what to qualify.
 */
function requalifying(
  record: LedgerRecord,
  liveness: Liveness | undefined,
  planner: StatusPlanner,
): { family: string | undefined } | undefined {
  const last = liveness?.lastStop;
  const shell = record.receipt?.shell;
  // simulate-stop chose its version: only a stop Cursor ran says which build is in use.
  if (last == null || last.simulated === true || shell === undefined) return undefined;
  const contract = planner.contracts().find((known) => known.id === shell);
  if (contract === undefined) return undefined;
  const differs =
    last.verdict === 'version-differs' ||
    (last.cursorVersion !== null && last.cursorVersion !== String(contract.evidence.version));
  return differs ? { family: contract.family } : undefined;
}

/**
 * Whether `qualify start --family` runs here as printed: a family of this platform whose probe
 * needs no recorder of the host's (the Windows family needs `--recorder`).
 */
function qualifiesHere(family: string): boolean {
  return grammarFamily(family)?.platform === 'posix' && process.platform !== 'win32';
}

async function ledgerStatus(
  path: string,
  realPath: string | undefined,
  bytes: Uint8Array | undefined,
  fs: FsSeam,
  planner: StatusPlanner,
): Promise<HookStatus['ledger']> {
  try {
    const { file, records } = await readLedger(path, { fs });
    const record = realPath === undefined ? undefined : records.get(realPath);
    const pending =
      record?.pending == null || bytes === undefined
        ? undefined
        : decidePending(record, bytes, planner);
    return {
      state: file.exists ? 'valid' : 'absent',
      reason: undefined,
      role: undefined,
      path: undefined,
      realPath: file.realPath,
      record,
      generation: record?.generation ?? 0,
      pending,
    };
  } catch (err) {
    return {
      state: 'refused',
      ...problemOf(err, 'ledger', path),
      realPath: await resolveTarget(path, fs).catch(() => undefined),
      record: undefined,
      generation: 0,
      pending: undefined,
    };
  }
}

function ownedStatus(
  document: Uint8Array,
  record: LedgerRecord,
  planner: StatusPlanner,
  options: StatusOptions,
): HookStatus['owned'] {
  const { receipt } = record;
  const given =
    options.spec === undefined || options.shell === undefined
      ? undefined
      : renderedCommand(planner, options.shell, options.spec);
  if (receipt === null) {
    const state =
      record.disabled !== null
        ? 'disabled'
        : record.released !== null
          ? 'released'
          : record.removed !== null
            ? 'removed'
            : 'not-installed';
    // A removed entry back in the file (an editor saved a stale buffer over the remove) is ours
    // no more, like a released one.
    const left = [...(record.released?.receipts ?? []), record.removed?.receipt ?? null];
    const ours = [...left.flatMap((r) => (r === null ? [] : [commandOf(planner)(r)])), given];
    return { state, repairable: false, reason: undefined, unowned: locate(document, ours) };
  }
  // Beside an owned entry: the given spec's command elsewhere (update would collide with it).
  const owned = commandOf(planner)(receipt);
  const unowned = given === undefined || given === owned ? [] : locate(document, [given]);
  const repair = repairPlan(document, receipt, planner);
  // A Repair that changes nothing proves an intact owner and an unchanged rest: the usual
  // answer, from one plan. Anything else is told apart by verifying the owner.
  if (repair.error === undefined && repair.noOp) {
    return { state: 'owned', repairable: false, reason: undefined, unowned };
  }
  try {
    planner.verifyOwned(document, receipt);
  } catch (err) {
    const reason = reasonOf(err);
    if (reason === 'owner-absent') {
      const repairable = !repair.conflict && !repair.noOp;
      return { state: 'absent', repairable, reason, unowned };
    }
    const state = OWNER_STATES[reason] ?? 'unknown';
    return { state, repairable: false, reason, unowned };
  }
  const drift = repair.error?.reason === 'remainder-drift';
  return {
    state: drift ? 'remainder-drift' : 'owned',
    repairable: false,
    reason: undefined,
    unowned,
  };
}

const OWNER_STATES: Partial<Record<ErrorReason, OwnedState>> = {
  'owner-modified': 'modified',
  'owner-duplicated': 'duplicated',
  'owner-outside-stop': 'outside-stop',
};

/** A Repair plan answers both questions: would it put the entry back, or has the rest drifted. */
function repairPlan(document: Uint8Array, receipt: ReceiptJSON, planner: StatusPlanner) {
  return planner.plan({
    document,
    operation: Operation.Repair,
    previous: receipt,
    executableVerified: true,
  });
}

const commandOf = (planner: StatusPlanner) => (receipt: ReceiptJSON) =>
  renderedCommand(planner, receipt.shell, receipt.spec);

/** The command a spec renders to; undefined when its contract is not registered here. */
function renderedCommand(
  planner: StatusPlanner,
  shell: string,
  spec: HookSpec,
): string | undefined {
  try {
    return planner.renderArgv(shell, stopArgv(spec.executable, spec.selector));
  } catch {
    return undefined;
  }
}

/** Where each command occurs in the document, by event and index, in document order. */
function locate(document: Uint8Array, commands: readonly (string | undefined)[]): EntryLocation[] {
  const wanted = new Set(commands.filter((command) => command !== undefined));
  if (wanted.size === 0) return [];
  const hooks = HookDocument.read(document);
  return [...wanted]
    .flatMap((command) => hooks.occurrences(command))
    .map(({ event, position }) => ({ event, index: position }))
    .sort((a, b) => (a.event === b.event ? a.index - b.index : a.event < b.event ? -1 : 1));
}

function nextStep(
  file: FileState,
  ledger: HookStatus['ledger'],
  owned: HookStatus['owned'],
): NextStep {
  if (ledger.state === 'refused') return 'fix-ledger';
  if (file === 'refused') return 'fix-file';
  if (ledger.pending === 'unresolved') return 'release';
  // Landed: repeating the interrupted command settles it and is done. Settled back, the write
  // never happened: the step is the one for the state the file is in, whose command settles
  // the record first anyway.
  if (ledger.pending === 'forward') return 'finish';
  switch (owned.state) {
    case 'owned':
    case 'disabled':
      return 'none';
    case 'remainder-drift':
      return 'refresh';
    // After release, entries left running our command are the user's to keep.
    case 'released':
      return owned.unowned.length > 0 ? 'none' : 'install';
    case 'not-installed':
    case 'removed':
      return owned.unowned.length > 0 ? 'review-entry' : 'install';
    case 'absent':
      return owned.repairable ? 'repair' : 'release';
    default:
      return 'release';
  }
}

/**
 * Whether the step's command would replace an existing hook file or ledger that the writer
 * cannot see into, and so refuse: then that command is no way out.
 */
function refusedForMetadata(
  step: NextStep,
  metadata: MetadataCheck,
  file: FileState,
  ledger: HookStatus['ledger'],
): boolean {
  if (metadata.writes !== 'refuse' || stepCommand(step, ledger) === null) return false;
  return file === 'valid' || file === 'empty' || ledger.state === 'valid';
}

/** A lock name holding something no cursorhooks process wrote: every write refuses it. */
const isForeign = (lock: LockInspection) => lock.state === 'held' && lock.holder === undefined;

/** `finish` runs the very operation that was interrupted. */
function stepCommand(code: NextStep, ledger: HookStatus['ledger']): string | null {
  return code === 'finish' ? (ledger.record?.pending?.operation ?? null) : STEP_COMMANDS[code];
}

/** The lock beside `realPath` when there is one; a lock that cannot be read is left out. */
async function lockOf(
  role: 'hook-file' | 'ledger',
  realPath: string | undefined,
  fs: FsSeam,
): Promise<HookStatus['locks']> {
  if (realPath === undefined) return [];
  const lock = await inspectLock(realPath, fs).catch(() => undefined);
  return lock === undefined || lock.state === 'free' ? [] : [{ ...lock, role }];
}

/** The record's contract file, as it stands now; null when none stands for its receipts. */
async function recordedContractFile(
  record: LedgerRecord | undefined,
  fs: FsSeam,
): Promise<RecordedContractFile | null> {
  const known = record === undefined ? null : knownContractFile(record);
  if (known === null) return null;
  const { state } = await lookAtContractFile(known, fs);
  return { path: known.path, id: known.id, state };
}

/** The shells of the receipts a record owns or is writing; their contracts must be known. */
function recordShells(record: LedgerRecord | undefined): string[] {
  const receipts = [record?.receipt, record?.pending?.intended];
  return receipts.flatMap((receipt) => (receipt == null ? [] : [receipt.shell]));
}

/** `finish` repeats the interrupted write's own spec; every other step keeps the receipted one. */
function knownSpec(
  record: LedgerRecord | undefined,
  code: NextStep,
): HookStatus['nextStep']['with'] {
  const known =
    (code === 'finish' ? record?.pending?.intended : undefined) ??
    record?.receipt ??
    record?.released?.receipts[0] ??
    record?.removed?.receipt ??
    record?.pending?.intended;
  return known == null ? null : { spec: known.spec, shell: known.shell };
}

/** The spec and shell status was given, when both were: the ones the host would install. */
function givenSpec(options: StatusOptions): HookStatus['nextStep']['with'] {
  const { spec, shell } = options;
  return spec === undefined || shell === undefined ? null : { spec, shell };
}

function problemOf(err: unknown, role: FileRole, path: string): FileProblem {
  const error = aboutFile(err, role, path);
  const named = error instanceof HostIOError ? error : undefined;
  return { reason: error.reason, role: named?.role, path: named?.path };
}

function reasonOf(err: unknown): ErrorReason {
  return err instanceof CursorHooksError ? err.reason : 'unexpected-failure';
}
