// The one table of what Cursor is known to read in a hook file: its event names and the fields
// of an entry, each with where it is known from. Older builds know fewer events; a name missing
// here is reported, never rewritten.

/**
 * Cursor's hook events. Source for every row unless noted: cursor.com/docs/agent/hooks and
 * mherod/agent-hook-schemas `cursor.ts` (audited 2026-09-21).
 */
export const KNOWN_EVENTS: readonly string[] = Object.freeze([
  'sessionStart', // docs; agent-hook-schemas
  'sessionEnd', // docs; agent-hook-schemas (fires under `cursor-agent -p`, mulmoterminal#2064)
  'preToolUse', // docs; agent-hook-schemas
  'postToolUse', // docs; agent-hook-schemas
  'postToolUseFailure', // agent-hook-schemas
  'subagentStart', // docs; agent-hook-schemas
  'subagentStop', // docs; agent-hook-schemas
  'beforeShellExecution', // docs; agent-hook-schemas
  'afterShellExecution', // docs; agent-hook-schemas
  'beforeMCPExecution', // docs; agent-hook-schemas
  'afterMCPExecution', // docs; agent-hook-schemas
  'beforeReadFile', // docs; agent-hook-schemas
  'afterFileEdit', // docs; agent-hook-schemas
  'beforeSubmitPrompt', // docs; agent-hook-schemas
  'preCompact', // docs; agent-hook-schemas
  'stop', // docs; agent-hook-schemas
  'afterAgentResponse', // docs; agent-hook-schemas
  'afterAgentThought', // docs; agent-hook-schemas
  'beforeTabFileRead', // docs; agent-hook-schemas
  'afterTabFileEdit', // docs; agent-hook-schemas
  'workspaceOpen', // docs; agent-hook-schemas
]);

/** A JSON value's kind as the tree reports it, with numbers and literals told apart. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** What one entry field must hold; `integer` also asks for a whole number at least 0. */
export interface FieldRule {
  readonly kinds: readonly JsonKind[];
  readonly nonNegativeInteger?: boolean;
}

/**
 * The fields of a Cursor entry whose JSON type is known (mherod/agent-hook-schemas; the docs
 * snapshot for `command`, `type`, `timeout`, `matcher`). Other members are left alone.
 */
export const ENTRY_FIELDS: Readonly<Record<string, FieldRule>> = Object.freeze({
  command: { kinds: ['string'] }, // docs; agent-hook-schemas
  type: { kinds: ['string'] }, // `command`, or `prompt` with `prompt` and optional `model`
  timeout: { kinds: ['number'] }, // seconds; docs; agent-hook-schemas
  matcher: { kinds: ['string'] }, // docs; agent-hook-schemas
  loop_limit: { kinds: ['number', 'null'], nonNegativeInteger: true }, // default 5 (secondary)
  failClosed: { kinds: ['boolean'] }, // agent-hook-schemas
  prompt: { kinds: ['string'] }, // a `prompt` entry's text; agent-hook-schemas
  model: { kinds: ['string'] }, // a `prompt` entry's optional model; agent-hook-schemas
});

/** The `type` of an entry that runs a prompt instead of a command (agent-hook-schemas). */
export const PROMPT_TYPE = 'prompt';

/**
 * Claude Code's hook events that Cursor runs as its own when it loads Claude settings files
 * (cursor.com/docs/reference/third-party-hooks; names as in Claude Code's hooks reference).
 * Only these are named in a finding; Claude files are never checked for unknown events.
 */
export const CLAUDE_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  Stop: 'stop', // third-party-hooks; the duplicate stops of akitaonrails/ai-memory#721
  SubagentStop: 'subagentStop', // third-party-hooks
  PreToolUse: 'preToolUse', // third-party-hooks
  PostToolUse: 'postToolUse', // third-party-hooks
  PreCompact: 'preCompact', // third-party-hooks
  SessionStart: 'sessionStart', // third-party-hooks
  SessionEnd: 'sessionEnd', // third-party-hooks
});
