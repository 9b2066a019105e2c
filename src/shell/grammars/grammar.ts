// A grammar: how one family of contracts renders argv into a command line and which paths it
// takes. The shell layer owns each grammar; the contracts in contracts/ bind one to a Cursor
// build's evidence, and the grammar families (families.ts) qualify it on a user's machine.
import type { PathRole } from '../contract.js';

export interface Grammar {
  render(argv: readonly string[]): string;
  assertCanonicalPath(path: string, role: PathRole): void;
}
