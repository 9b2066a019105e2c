// The options the file-level commands share (SPEC §11), and how their values are read.

import { resolve } from 'node:path';
import type { HookSpec } from '../../domain/hook-spec.js';
import { defaultHooksPath } from '../../node/locate.js';
import { usageError } from '../cli-error.js';
import type { OptionDeclarations, OptionValues } from '../command.js';
import { absolutePath } from '../path-option.js';

export const FILE_OPTIONS: OptionDeclarations = {
  'hooks-file': {
    type: 'string',
    value: 'PATH',
    help: "the hook file, an absolute path (default: ~/.cursor/hooks.json in the user's home)",
  },
  ledger: {
    type: 'string',
    value: 'PATH',
    required: true,
    help: "the host's receipt ledger, an absolute path, one per host application",
  },
};

/** The spec and shell options; required by install and update, optional for repair and status. */
export function specOptions(required: boolean): OptionDeclarations {
  const when = required ? '' : ' (default: the receipted one)';
  return {
    executable: {
      type: 'string',
      value: 'PATH',
      required,
      help: `the hook executable, an absolute path${when}`,
    },
    selector: {
      type: 'string',
      value: 'PATH',
      required,
      help: `the selector (binding) file, an absolute path${when}`,
    },
    shell: {
      type: 'string',
      value: 'ID',
      required,
      help: `a shell contract id, see: cursorhooks contracts${when}`,
    },
  };
}

export const DRY_RUN_OPTION: OptionDeclarations = {
  'dry-run': {
    type: 'boolean',
    help: 'plan and print the diff; write nothing, not even the ledger',
  },
};

/** install: where the host's observer records each stop, kept in the ledger for `status`. */
export const HEARTBEAT_OPTION: OptionDeclarations = {
  heartbeat: {
    type: 'string',
    value: 'PATH',
    help: "the heartbeat file the host's stop observer writes, an absolute path: status then reports the last stop (default: the one on record, if any)",
  },
};

/** The one way past a check the CLI could not perform; its name says what the user takes on. */
export const VOUCH_OPTION: OptionDeclarations = {
  'vouch-unperformed-checks': {
    type: 'boolean',
    help: 'you vouch for host path checks reported not-performed (e.g. Windows ACLs); never for failed ones',
  },
};

/**
 * The one way past ACLs and extended attributes the writer cannot see (the optional native
 * module does not load); its name says what the user gives up, and the output says it was.
 */
export const ACCEPT_METADATA_LOSS_OPTION: OptionDeclarations = {
  'accept-metadata-loss': {
    type: 'boolean',
    help: 'where the optional @napi-rs/xattr module does not load, replace existing files anyway, losing any ACLs and extended attributes they have',
  },
};

/** `--accept-metadata-loss`, as the kit's option. */
export function metadataLossOf(options: OptionValues): { acceptMetadataLoss?: true } {
  return options['accept-metadata-loss'] === true ? { acceptMetadataLoss: true } : {};
}

/** The hook file and the ledger, both absolute and never the same file. */
export function filesOf(options: OptionValues): { hooksFile: string; ledger: string } {
  const hooksFile = absolute(options, 'hooks-file') ?? defaultHooksPath();
  const ledger = absolute(options, 'ledger') as string;
  if (resolve(ledger) === resolve(hooksFile)) {
    throw usageError(
      'ledger-is-hook-file',
      'option --ledger names the hook file itself: give the ledger a file of its own',
      { option: '--ledger' },
    );
  }
  return { hooksFile, ledger };
}

/** A path option's value, refused when relative (the one rule: see path-option.ts). */
export function absolute(options: OptionValues, name: string): string | undefined {
  const value = options[name] as string | undefined;
  return value === undefined ? undefined : absolutePath(value, name);
}

/** `--executable` and `--selector` together, or neither (then undefined). */
export function specOf(options: OptionValues): HookSpec | undefined {
  const executable = options.executable as string | undefined;
  const selector = options.selector as string | undefined;
  if (executable === undefined && selector === undefined) return undefined;
  if (executable === undefined) throw requiredWith('--executable', '--selector');
  if (selector === undefined) throw requiredWith('--selector', '--executable');
  return { executable, selector };
}

function requiredWith(missing: string, given: string) {
  return usageError('option-required', `option ${missing} is required with ${given}`, {
    option: missing,
  });
}

/**
 * `--shell`, refused as a usage error naming the registered contract ids when it names none of
 * them: an unknown id would otherwise reach the lifecycle as a bare `shell-unsupported`.
 */
export function shellOf(options: OptionValues, registered: readonly string[]): string | undefined {
  const shell = options.shell as string | undefined;
  if (shell === undefined || registered.includes(shell)) return shell;
  throw usageError(
    'shell-unknown',
    // A contract qualified on this machine is registered only by its record: say how.
    `option --shell names no registered shell contract; the registered ones are: ${registered.join(', ')}; a contract from qualify finish is registered by passing its record with --contract-file`,
    { option: '--shell' },
  );
}
