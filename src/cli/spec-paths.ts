// A relative --executable or --selector is a usage error (exit 2), as a relative --hooks-file
// is. "Relative" is judged on the platform of the contract the entry is rendered for, never the
// host's: `C:\Program Files\x.exe` is absolute for a Windows contract on a Linux machine.

import { isAbsolute } from '../node/status/absolute-path.js';
import type { HookPlanner } from '../planner/hook-planner.js';
import { grammarFamily } from '../shell/families.js';
import { usageError } from './cli-error.js';
import type { OptionValues } from './command.js';

const SPEC_PATHS = ['executable', 'selector'] as const;

/**
 * Refuses a spec path that is relative on the platform of the `--shell` contract; without
 * `--shell` (the receipted contract) or for a contract naming no family, on every platform.
 */
export function assertSpecPathsAbsolute(options: OptionValues, planner: HookPlanner): void {
  const contract = planner.contracts().find((known) => known.id === options.shell);
  const family = contract?.family === undefined ? undefined : grammarFamily(contract.family);
  const platforms = family === undefined ? (['posix', 'windows'] as const) : [family.platform];
  for (const name of SPEC_PATHS) {
    const path = options[name];
    if (
      typeof path !== 'string' ||
      platforms.some((platform) => isAbsolute(path, platform === 'windows'))
    ) {
      continue;
    }
    throw usageError(
      'option-path-relative',
      `option --${name} needs an absolute path on the shell contract's platform (POSIX: /..., Windows: X:\\...)`,
      { option: `--${name}` },
    );
  }
}
