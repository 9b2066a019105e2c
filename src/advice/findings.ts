// What doctor reports: a finding names a place in a hook source by position only (source,
// event, indexes) and carries a sentence from the fixed table below, never a value from a file.

/** Where Cursor reads hooks from, in the order it ranks them (highest first). */
export const SOURCES = [
  'enterprise',
  'project',
  'user',
  'claude-project-local',
  'claude-project',
  'claude-user',
] as const;
export type HookSource = (typeof SOURCES)[number];

/** Worst first: the order findings and the worst severity are reported in. */
export const SEVERITIES = ['voids-file', 'voids-entry', 'fires-twice', 'advice'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FINDING_SENTENCES = {
  'source-unreadable':
    'this file cannot be read (permissions, or not a regular file): its hooks are not checked, and Cursor may not run them either',
  'empty-file': 'this file is empty: it holds no hooks; delete it or give it {"version": 1}',
  'not-json':
    'this file is not valid JSON at the line and column given (comments and trailing commas are not JSON): Cursor ignores every hook in it; fix it there',
  'not-checked':
    'this file is beyond what cursorhooks reads (over 4 MiB, nested too deep, too many values, or not UTF-8): it was not checked',
  'key-duplicated':
    'this file repeats a key at the line and column given: JSON readers keep only the last one, so the hooks under the earlier one never run; merge them',
  'root-not-object':
    'this file is not a JSON object: Cursor ignores it; it must be {"version": 1, "hooks": {...}}',
  'version-missing':
    'this file has no "version": a user file still runs but is not listed under Customize > Hooks, and a plugin refuses it; add "version": 1',
  'version-not-1':
    'this file\'s "version" is not the number 1: a version that is not a number is refused, and cursorhooks edits only version 1; set "version": 1',
  'hooks-not-object':
    'this file\'s "hooks" is not an object of event names: Cursor runs none of its hooks; make it {"stop": [...], ...}',
  'event-not-array':
    "this event's value is not a list of entries: none of its hooks run, and a strict build ignores the whole file; make it a list",
  'event-unknown':
    'this event name is not one Cursor is known to read: most builds skip it, but at least one cursor-agent build ignored every hook in the file because of it; rename or remove it',
  'entry-not-object':
    'this entry is not an object: it never runs; make it {"command": "..."} or remove it',
  'command-missing':
    'this entry has no "command" (and is not a "prompt" entry): it never runs; add the command or remove the entry',
  'claude-style-entry':
    'this entry is Claude Code\'s nested shape ({"matcher", "hooks": [...]}), which Cursor does not run from a Cursor file; write each inner hook as an entry of its own',
  'field-type':
    'this entry\'s field named in "field" has the wrong JSON type: Cursor may reject the entry or the file; give it the documented type',
  'command-duplicated':
    'this entry runs the same command as an earlier entry of the same event in this file: it fires twice; keep one',
  'command-in-two-sources':
    'this entry runs the same command, for the same event, as an entry in the source named in "also": Cursor runs both, so it fires twice; keep one',
  'owned-elsewhere':
    "this entry runs this host's receipted command outside the user file it was installed in: Cursor runs both, so it fires twice; remove this copy",
  'owned-missing':
    "this host's receipted entry is not in the user hook file: it does not run; run cursorhooks status for the way to put it back",
  'windows-quoted-path':
    'this command begins with a quoted path and has no "&": PowerShell prints the path instead of running it; start the command with "& "',
} as const;

/**
 * Added to an entry's sentence in a Claude Code settings file, where one invalid entry makes
 * Claude Code ignore the whole file (anthropics/claude-code#75081, #49990).
 */
export const CLAUDE_FILE_NOTE =
  '; in a Claude Code settings file one invalid entry makes the whole file ignored';

export type FindingCode = keyof typeof FINDING_SENTENCES;

/**
 * One finding. `event` is given only for a name from the known-events table; an event is
 * otherwise named by `eventIndex`, its position among the `hooks` members. For an event-level
 * finding (`event-unknown`, `event-not-array`) `index` is that position too; for an entry,
 * `index` is its position in the event's list, and `hook` its position inside a Claude group.
 */
export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly source: HookSource;
  /** For a workspace's source: the workspace's position in the list doctor was given. */
  readonly workspace?: number;
  readonly event?: string;
  readonly eventIndex?: number;
  readonly index?: number;
  readonly hook?: number;
  /** For `field-type`: the field's name, from the entry-field table. */
  readonly field?: string;
  /** For `command-in-two-sources`: the other source (and its workspace, for a workspace's). */
  readonly also?: HookSource;
  readonly alsoWorkspace?: number;
  /** For `not-json` and `key-duplicated`: where, from 1, counting code points. */
  readonly line?: number;
  readonly column?: number;
  /** The finding is about this host's own receipted entry. */
  readonly ours?: true;
  readonly sentence: string;
}

/** Orders findings worst first, then by source rank, then by position. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    SOURCES.indexOf(a.source) - SOURCES.indexOf(b.source) ||
    (a.workspace ?? -1) - (b.workspace ?? -1) ||
    (a.eventIndex ?? a.index ?? -1) - (b.eventIndex ?? b.index ?? -1) ||
    (a.index ?? -1) - (b.index ?? -1) ||
    (a.hook ?? -1) - (b.hook ?? -1)
  );
}

/** The worst severity among `findings`; null when there are none. */
export function worstSeverity(findings: readonly Finding[]): Severity | null {
  return SEVERITIES.find((severity) => findings.some((f) => f.severity === severity)) ?? null;
}

/**
 * Whether anything voids the user file or this host's own entry: doctor's exit 1. A voided
 * foreign entry, or another source voided, leaves our entry running and is reported only.
 */
export function voidsOurs(findings: readonly Finding[]): boolean {
  return findings.some(
    (f) =>
      (f.severity === 'voids-file' && f.source === 'user') ||
      (f.severity === 'voids-entry' && f.ours === true),
  );
}
