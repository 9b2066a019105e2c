// Grammar families: the argv grammars a contract can be qualified for. Each built-in contract
// is one family's grammar bound to one Cursor build's evidence; a record qualified on the user's
// own machine binds the same grammar to that build (qualifiedContract). A family is never a
// copy: it and its built-in contracts run the one grammar of this layer (grammars/).
import type { PathRole } from './contract.js';
import type { Grammar } from './grammars/grammar.js';
import { posixSingleQuote } from './grammars/posix-single-quote.js';
import { powershellStop } from './grammars/powershell-stop.js';

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
  grammar: Grammar,
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
    posixSingleQuote,
  ),
  familyOf(
    'powershell-stop',
    "only the five-token stop invocation, as & '<exe>' 'cursor-event' 'stop' '--binding' '<selector>' with apostrophes doubled; local drive paths, the executable ending in .exe",
    'windows',
    powershellStop,
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
