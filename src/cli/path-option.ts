// The one rule for every path option (--hooks-file, --ledger, --out, --contract-file and the
// rest): a relative path is a usage error, exit 2. Resolved against the working directory, a
// mistyped name would silently become a file somewhere else, or read another one.
import { isAbsolute } from 'node:path';
import { usageError } from './cli-error.js';

/** The value of option `--name`, refused unless it is an absolute path on this host. */
export function absolutePath(value: string, name: string): string {
  if (isAbsolute(value)) return value;
  throw usageError('option-path-relative', `option --${name} needs an absolute path`, {
    option: `--${name}`,
  });
}
