// Claude Code's settings files: `{"hooks": {"Stop": [{"matcher": "...", "hooks": [{"type":
// "command", "command": "..."}]}]}}`. Only what finds a command there, and what makes Claude Code
// ignore the file (one invalid entry disables the whole file), is read; nothing else is judged.
import { type JsonNode, memberValue } from '../json/tree.js';
import { finding, type Inspection, kindOf, type Position, type Reading } from './inspection.js';
import { CLAUDE_EVENTS, type JsonKind } from './known-events.js';

/** The members of a group and of an inner hook whose JSON type Claude Code checks. */
const GROUP_FIELDS: Readonly<Record<string, JsonKind>> = { matcher: 'string', hooks: 'array' };
const HOOK_FIELDS: Readonly<Record<string, JsonKind>> = {
  type: 'string',
  command: 'string',
  timeout: 'number',
};
const COMMAND_TYPE = 'command';

export function inspectClaudeFile(root: JsonNode, reading: Reading): Inspection {
  const { source } = reading;
  const result: Inspection = { findings: [], sites: [] };
  const { findings } = result;
  if (root.kind !== 'object') {
    findings.push(finding('root-not-object', 'voids-file', source));
    return result;
  }
  const hooks = memberValue(root, 'hooks');
  if (hooks === undefined) return result;
  if (hooks.kind !== 'object') {
    findings.push(finding('hooks-not-object', 'voids-file', source));
    return result;
  }
  hooks.members.forEach(({ key, value }, eventIndex) => {
    const known = Object.keys(CLAUDE_EVENTS).find((name) => name === key.value);
    const named = known === undefined ? {} : { event: known };
    if (value.kind !== 'array') {
      findings.push(
        finding('event-not-array', 'voids-file', source, { ...named, index: eventIndex }),
      );
      return;
    }
    const cursorEvent = known === undefined ? undefined : CLAUDE_EVENTS[known];
    value.elements.forEach((group, index) => {
      inspectGroup(group, { ...named, eventIndex, index }, cursorEvent, reading, result);
    });
  });
  return result;
}

function inspectGroup(
  group: JsonNode,
  at: Position,
  cursorEvent: string | undefined,
  reading: Reading,
  result: Inspection,
): void {
  const { source } = reading;
  if (group.kind !== 'object') {
    result.findings.push(finding('entry-not-object', 'voids-file', source, at));
    return;
  }
  pushWrongFields(group, GROUP_FIELDS, at, reading, result);
  const inner = memberValue(group, 'hooks');
  if (inner === undefined) {
    result.findings.push(finding('command-missing', 'voids-file', source, at));
    return;
  }
  if (inner.kind !== 'array') return;
  inner.elements.forEach((hook, position) => {
    const hookAt = { ...at, hook: position };
    if (hook.kind !== 'object') {
      result.findings.push(finding('entry-not-object', 'voids-file', source, hookAt));
      return;
    }
    pushWrongFields(hook, HOOK_FIELDS, hookAt, reading, result);
    const type = memberValue(hook, 'type');
    if (type?.kind !== 'string' || type.value !== COMMAND_TYPE) return;
    const command = memberValue(hook, 'command');
    if (command === undefined) {
      result.findings.push(finding('command-missing', 'voids-file', source, hookAt));
      return;
    }
    if (command.kind !== 'string') return;
    if (command.value === reading.ownedCommand) {
      result.findings.push(
        finding('owned-elsewhere', 'fires-twice', source, { ...hookAt, ours: true }),
      );
    }
    result.sites.push({ command: command.value, cursorEvent, at: hookAt });
  });
}

function pushWrongFields(
  node: JsonNode & { kind: 'object' },
  fields: Readonly<Record<string, JsonKind>>,
  at: Position,
  reading: Reading,
  result: Inspection,
): void {
  for (const [field, kind] of Object.entries(fields)) {
    const value = memberValue(node, field);
    if (value !== undefined && kindOf(value) !== kind) {
      result.findings.push(finding('field-type', 'voids-file', reading.source, { ...at, field }));
    }
  }
}
