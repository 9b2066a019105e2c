// `--contract-file PATH` (repeatable): qualification records written by `qualify finish`,
// registered as contracts before the planner is built, on every command that takes `--shell`.
import { CursorHooksError } from '../errors/errors.js';
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

/** A record is a few kilobytes; a larger file is not one. */
const MAX_RECORD_BYTES = 256 * 1024;
const OPTION = { option: '--contract-file' } as const;

/**
 * The record's bytes, bounded: the size is checked before reading, and a FIFO or device (a
 * `/dev/zero`, a pipe nobody writes) is refused without a byte read or a wait.
 */
async function readContractFile(path: string): Promise<Uint8Array> {
  const subject = { ...OPTION, path };
  // Loaded only when a contract file is given: `plan` and `verify` never pay for the host kit.
  const [{ readBoundedFile }, { HostIOError }, { blockingFs }] = await Promise.all([
    import('../node/write/bounded-file.js'),
    import('../node/errors.js'),
    import('../node/write/fs-seam.js'),
  ]);
  try {
    const file = await readBoundedFile(path, blockingFs, { maxBytes: MAX_RECORD_BYTES });
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

/** The built-in contracts plus every `--contract-file`, or the default planner without any. */
export async function plannerOf(options: OptionValues): Promise<HookPlanner> {
  const paths = contractFilesOf(options).map((path) => absolutePath(path, 'contract-file'));
  if (paths.length === 0) return defaultPlanner();
  const contracts = await Promise.all(paths.map(contractFrom));
  try {
    return plannerWith(contracts);
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    throw usageError(err.reason, `option --contract-file: ${err.message}`, OPTION);
  }
}

async function contractFrom(path: string): Promise<ShellContract> {
  const bytes = await readContractFile(path);
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
