// What reading one hook source yields: its findings, and where each command it runs stands.
// The commands stay inside the kit (for the checks across sources); only positions leave it.
import type { JsonNode } from '../json/tree.js';
import {
  CLAUDE_FILE_NOTE,
  FINDING_SENTENCES,
  type Finding,
  type FindingCode,
  type HookSource,
  type Severity,
} from './findings.js';
import type { JsonKind } from './known-events.js';

/** One entry (or Claude inner hook) that runs a command, by position. */
export interface CommandSite {
  readonly command: string;
  /** Cursor's name of the event it runs for; undefined when the event is not one it runs. */
  readonly cursorEvent: string | undefined;
  /** Where it is, as a finding about it would name it. */
  readonly at: Position;
}

/** The position members of a finding. */
export type Position = Pick<Finding, 'event' | 'eventIndex' | 'index' | 'hook'>;

export interface Inspection {
  readonly findings: Finding[];
  readonly sites: CommandSite[];
}

/** What the rules of one schema know while they read a source. */
export interface Reading {
  readonly source: HookSource;
  readonly ownedCommand: string | undefined;
  readonly windows: boolean;
}

const isClaude = (source: HookSource): boolean => source.startsWith('claude-');

/** A finding with its sentence from the fixed table; no value of the file can reach it. */
export function finding(
  code: FindingCode,
  severity: Severity,
  source: HookSource,
  extra: Omit<Finding, 'code' | 'severity' | 'source' | 'sentence'> = {},
): Finding {
  const entryLevel = extra.eventIndex !== undefined;
  const note = isClaude(source) && severity === 'voids-file' && entryLevel ? CLAUDE_FILE_NOTE : '';
  return { code, severity, source, ...extra, sentence: FINDING_SENTENCES[code] + note };
}

export function kindOf(node: JsonNode): JsonKind {
  if (node.kind !== 'literal') return node.kind;
  return node.lexeme === 'null' ? 'null' : 'boolean';
}

/** A whole number at least 0 (one too large for a double is not one Cursor can hold). */
export function isNonNegativeInteger(node: JsonNode): boolean {
  if (node.kind !== 'number') return false;
  const value = Number(node.lexeme);
  return Number.isSafeInteger(value) && value >= 0;
}

/** The leading run of whitespace is skipped: PowerShell skips it too. */
export function beginsWithQuotedPath(command: string): boolean {
  const first = command.trimStart()[0];
  return (first === '"' || first === "'") && !command.includes('&');
}
