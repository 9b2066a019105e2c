// `--contract-file PATH` (repeatable): qualification records written by `qualify finish`,
// registered as contracts before the planner is built, on every command that takes `--shell`.
// A file command given none registers the one the ledger keeps for the receipt, if unchanged.
import { CursorHooksError } from '../errors/errors.js';
import { sha256Hex } from '../json/sha256.js';
import type { ContractFileRecord } from '../node/ledger/ledger.js';
import { defaultPlanner, plannerWith } from '../planner/default.js';
import type { HookPlanner } from '../planner/hook-planner.js';
import type { ShellContract } from '../shell/contract.js';
import { qualifiedContract } from '../shell/qualification-record.js';
import { CliError, usageError } from './cli-error.js';
import type { OptionDeclarations, OptionValues } from './command.js';
import { repeatsKey } from './duplicate-keys.js';
import { absolutePath } from './path-option.js';

export const CONTRACT_FILE_OPTION: OptionDeclarations = {
  'contract-file': {
    type: 'string',
    value: 'PATH',
    multiple: true,
    help: 'a qualification record (from qualify finish) to register as a contract, an absolute path; repeatable',
  },
};

const OPTION = { option: '--contract-file' } as const;

/**
 * The record's bytes, bounded: the size is checked before reading, and a FIFO or device (a
 * `/dev/zero`, a pipe nobody writes) is refused without a byte read or a wait.
 */
async function readContractFile(path: string): Promise<Uint8Array> {
  const subject = { ...OPTION, path };
  // Loaded only when a contract file is given: `plan` and `verify` never pay for the host kit.
  const [{ readBoundedFile }, { HostIOError }, { blockingFs }, { MAX_CONTRACT_FILE_BYTES }] =
    await Promise.all([
      import('../node/write/bounded-file.js'),
      import('../node/errors.js'),
      import('../node/write/fs-seam.js'),
      import('../node/status/contract-file.js'),
    ]);
  try {
    const file = await readBoundedFile(path, blockingFs, { maxBytes: MAX_CONTRACT_FILE_BYTES });
    if (file !== undefined) return file.bytes;
  } catch (err) {
    // The reader turns every failure of a system call into a HostIOError: the rest is a bug.
    if (!(err instanceof HostIOError)) throw err;
    if (err.reason === 'file-too-large') {
      throw usageError('contract-file-too-large', 'a --contract-file exceeds 256 KiB', subject);
    }
    if (err.reason === 'file-not-regular') {
      throw usageError(
        'contract-file-not-regular',
        'a --contract-file is not a regular file (a directory, FIFO, device or socket)',
        subject,
      );
    }
  }
  throw new CliError(
    'io',
    'contract-file-unreadable',
    'a --contract-file could not be read',
    subject,
  );
}

/** The `--contract-file` paths as given (a printed command line carries them again). */
export const contractFilesOf = (options: OptionValues): readonly string[] =>
  (options['contract-file'] as readonly string[] | undefined) ?? [];

/** The planner, and each record registered in it with the digest of the bytes read. */
export interface ContractFiles {
  readonly planner: HookPlanner;
  readonly used: readonly ContractFileRecord[];
}

/** The hook file and ledger whose record may name the contract file a receipt was made with. */
export interface RecordedIn {
  readonly hooksFile: string;
  readonly ledger: string;
}

/** The built-in contracts plus every `--contract-file`, or the default planner without any. */
export async function plannerOf(options: OptionValues): Promise<HookPlanner> {
  return (await contractsOf(options)).planner;
}

/**
 * The built-in contracts plus every `--contract-file`. Given none, and `recordedIn`: the
 * contract file the ledger recorded for the hook file's receipt too, when it still holds the
 * bytes it was recorded with (a moved or changed one is left out, and status says so).
 */
export async function contractsOf(
  options: OptionValues,
  recordedIn?: RecordedIn,
): Promise<ContractFiles> {
  const paths = contractFilesOf(options).map((path) => absolutePath(path, 'contract-file'));
  const loaded =
    paths.length > 0
      ? await Promise.all(paths.map(async (path) => loadedFrom(path, await readContractFile(path))))
      : recordedIn === undefined
        ? []
        : await recordedContract(recordedIn);
  if (loaded.length === 0) return { planner: defaultPlanner(), used: [] };
  try {
    const planner = plannerWith(loaded.map(({ contract }) => contract));
    return { planner, used: loaded.map(({ record }) => record) };
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    throw usageError(err.reason, `option --contract-file: ${err.message}`, OPTION);
  }
}

interface Loaded {
  readonly contract: ShellContract;
  readonly record: ContractFileRecord;
}

function loadedFrom(path: string, bytes: Uint8Array): Loaded {
  const contract = contractFrom(bytes);
  return { contract, record: { path, id: contract.id, sha256: sha256Hex(bytes) } };
}

/**
 * The contract file the ledger keeps for the hook file, when found unchanged. Read only, without
 * a lock: the command reads the ledger again itself, and reports what this look could not.
 */
async function recordedContract({ hooksFile, ledger }: RecordedIn): Promise<Loaded[]> {
  const [{ knownContractFile, readLedger }, { lookAtContractFile }, { resolveTarget }, seam] =
    await Promise.all([
      import('../node/ledger/ledger.js'),
      import('../node/status/contract-file.js'),
      import('../node/write/read.js'),
      import('../node/write/fs-seam.js'),
    ]);
  const fs = seam.blockingFs;
  let recorded: ContractFileRecord | null;
  try {
    const realPath = await resolveTarget(hooksFile, fs);
    const record = (await readLedger(ledger, { fs })).records.get(realPath);
    recorded = record === undefined ? null : knownContractFile(record);
  } catch (err) {
    // A ledger or hook file that cannot be read is the command's own refusal to report.
    if (err instanceof CursorHooksError) return [];
    throw err;
  }
  if (recorded === null) return [];
  const look = await lookAtContractFile(recorded, fs);
  return look.bytes === undefined ? [] : [loadedFrom(recorded.path, look.bytes)];
}

function contractFrom(bytes: Uint8Array): ShellContract {
  let value: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(text);
    if (repeatsKey(text)) throw new SyntaxError('a repeated key');
  } catch {
    throw usageError('contract-file-not-json', 'a --contract-file is not one JSON object', OPTION);
  }
  try {
    return qualifiedContract(value);
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    throw usageError(err.reason, `option --contract-file: ${err.message}`, OPTION);
  }
}
