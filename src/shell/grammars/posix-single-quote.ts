// The POSIX single-quote grammar: how a contract of the `posix-single-quote` family renders argv
// and which paths it takes. The built-in Linux and Darwin contracts and the family of that name
// (families.ts) all run this one code.
import { UnsupportedError } from '../../errors/errors.js';
import type { PathRole } from '../contract.js';
import { assertArgvTokens } from '../tokens.js';
import type { Grammar } from './grammar.js';

/**
 * Inside single quotes a POSIX shell expands nothing, and the only character that cannot appear
 * there is the apostrophe itself, so it is written as close-quote, a double-quoted apostrophe,
 * reopen. The command is the bare quoted words: no exec, set, redirection or guard.
 */
export const posixSingleQuote: Grammar = Object.freeze({
  render(argv: readonly string[]): string {
    assertArgvTokens(argv);
    return argv.map(quoteToken).join(' ');
  },

  // Executable and selector follow the same rule on POSIX, so the role is not consulted.
  assertCanonicalPath(path: string, _role: PathRole): void {
    // The path will be a token, so the token rules (string, NUL, `$`, length...) apply first.
    assertArgvTokens([path]);
    if (!path.startsWith('/')) throw new UnsupportedError('path-not-absolute');
    // `/`, `//` (implementation-defined in POSIX) and longer runs of slashes all name the root.
    if (/^\/+$/.test(path)) throw new UnsupportedError('path-root-alias');
    if (path.endsWith('/')) throw new UnsupportedError('path-trailing-separator');
    for (const segment of path.slice(1).split('/')) {
      if (segment === '') throw new UnsupportedError('path-empty-segment');
      if (segment === '.' || segment === '..') throw new UnsupportedError('path-dot-segment');
    }
  },
});

function quoteToken(token: string): string {
  return `'${token.replaceAll("'", `'"'"'`)}'`;
}
