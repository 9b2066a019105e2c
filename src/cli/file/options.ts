// The options the file-level commands share (SPEC §11), and how their values are read.
import type { HookSpec } from '../../domain/hook-spec.js';
import { defaultHooksPath } from '../../node/locate.js';
import { usageError } from '../cli-error.js';
import type { OptionDeclarations, OptionValues } from '../command.js';

export const FILE_OPTIONS: OptionDeclarations = {
  'hooks-file': {
    type: 'string',
    value: 'PATH',
    help: "the hook file (default: ~/.cursor/hooks.json in the user's home)",
  },
  ledger: {
    type: 'string',
    value: 'PATH',
    required: true,
    help: "the host's receipt ledger, one per host application",
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

/** The one way past a check the CLI could not perform; its name says what the user takes on. */
export const VOUCH_OPTION: OptionDeclarations = {
  'vouch-unperformed-checks': {
    type: 'boolean',
    help: 'you vouch for host path checks reported not-performed (e.g. Windows ACLs); never for failed ones',
  },
};

export function hooksFileOf(options: OptionValues): string {
  return (options['hooks-file'] as string | undefined) ?? defaultHooksPath();
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
