// Grammar families: the argv grammars a contract can be qualified for. Each built-in contract
// is one family's grammar bound to one Cursor build's evidence; a record qualified on the user's
// own machine binds the same grammar to that build (qualifiedContract). A family is never a
// copy: it delegates to the very code its built-in contracts run.
import { LinuxUserShellContract } from '../../contracts/linux-user-3.22.12.js';
import { WindowsPowerShellStopContract } from '../../contracts/windows-powershell-stop-2026.10.01.js';
import type { PathRole, ShellContract } from './contract.js';

export const GRAMMAR_FAMILY_IDS = ['posix-single-quote', 'powershell-stop'] as const;
export type GrammarFamilyId = (typeof GRAMMAR_FAMILY_IDS)[number];

export interface GrammarFamily {
  readonly id: GrammarFamilyId;
  /** What the grammar renders, for hosts to show. */
  readonly summary: string;
  /** The platform family a probe for it runs on: a POSIX shell or Windows PowerShell. */
  readonly platform: 'posix' | 'windows';
  assertCanonicalPath(path: string, role: PathRole): void;
  render(argv: readonly string[]): string;
}

function familyOf(
  id: GrammarFamilyId,
  summary: string,
  platform: GrammarFamily['platform'],
  grammar: ShellContract,
): GrammarFamily {
  return Object.freeze({
    id,
    summary,
    platform,
    assertCanonicalPath: (path: string, role: PathRole) => grammar.assertCanonicalPath(path, role),
    render: (argv: readonly string[]) => grammar.render(argv),
  });
}

const FAMILIES: readonly GrammarFamily[] = Object.freeze([
  familyOf(
    'posix-single-quote',
    "every token in single quotes, an apostrophe as '\"'\"', joined by spaces; canonical absolute POSIX paths",
    'posix',
    new LinuxUserShellContract(),
  ),
  familyOf(
    'powershell-stop',
    "only the five-token stop invocation, as & '<exe>' 'cursor-event' 'stop' '--binding' '<selector>' with apostrophes doubled; local drive paths, the executable ending in .exe",
    'windows',
    new WindowsPowerShellStopContract(),
  ),
]);

/** The grammar families, in display order. */
export function grammarFamilies(): readonly GrammarFamily[] {
  return FAMILIES;
}

/** The family with this id, or undefined. */
export function grammarFamily(id: unknown): GrammarFamily | undefined {
  return FAMILIES.find((family) => family.id === id);
}
