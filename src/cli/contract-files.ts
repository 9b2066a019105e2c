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

export const CONTRACT_FILE_OPTION: OptionDeclarations = {
  'contract-file': {
    type: 'string',
    value: 'PATH',
    multiple: true,
    help: 'a qualification record (from qualify finish) to register as a contract; repeatable',
  },
};

/** A record is a few kilobytes; a larger file is not one. */
const MAX_RECORD_BYTES = 256 * 1024;
const OPTION = { option: '--contract-file' } as const;

/** The built-in contracts plus every `--contract-file`, or the default planner without any. */
export async function plannerOf(options: OptionValues): Promise<HookPlanner> {
  const paths = (options['contract-file'] as readonly string[] | undefined) ?? [];
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
  let bytes: Buffer;
  try {
    // Loaded only when a record is given: plan and verify start without the promise fs.
    const { readFile } = await import('node:fs/promises');
    bytes = await readFile(path);
  } catch {
    throw new CliError('io', 'contract-file-unreadable', 'a --contract-file could not be read', {
      ...OPTION,
      path,
    });
  }
  if (bytes.length > MAX_RECORD_BYTES) {
    throw usageError('contract-file-too-large', 'a --contract-file exceeds 256 KiB', OPTION);
  }
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
