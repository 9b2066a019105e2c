// Cursor's own hook file (user, project, enterprise): `{"version": 1, "hooks": {event: [entry]}}`.
import { isExactlyOne } from '../json/number.js';
import { type JsonNode, type JsonObject, memberValue } from '../json/tree.js';
import {
  beginsWithQuotedPath,
  finding,
  type Inspection,
  isNonNegativeInteger,
  kindOf,
  type Position,
  type Reading,
} from './inspection.js';
import { ENTRY_FIELDS, KNOWN_EVENTS, PROMPT_TYPE } from './known-events.js';

export function inspectCursorFile(root: JsonNode, reading: Reading): Inspection {
  const { source } = reading;
  const result: Inspection = { findings: [], sites: [] };
  const { findings } = result;
  if (root.kind !== 'object') {
    findings.push(finding('root-not-object', 'voids-file', source));
    return result;
  }
  const version = memberValue(root, 'version');
  if (version === undefined) findings.push(finding('version-missing', 'advice', source));
  else if (version.kind !== 'number') findings.push(finding('version-not-1', 'voids-file', source));
  else if (!isExactlyOne(version.lexeme)) findings.push(finding('version-not-1', 'advice', source));
  const hooks = memberValue(root, 'hooks');
  if (hooks === undefined) return result;
  if (hooks.kind !== 'object') {
    findings.push(finding('hooks-not-object', 'voids-file', source));
    return result;
  }
  hooks.members.forEach(({ key, value }, eventIndex) => {
    const known = KNOWN_EVENTS.find((name) => name === key.value);
    const named = known === undefined ? {} : { event: known };
    if (known === undefined) {
      findings.push(finding('event-unknown', 'voids-file', source, { index: eventIndex }));
    }
    if (value.kind !== 'array') {
      findings.push(
        finding('event-not-array', 'voids-file', source, { ...named, index: eventIndex }),
      );
      return;
    }
    // No build runs the entries of an event it does not know: they are not checked further.
    if (known === undefined) return;
    value.elements.forEach((entry, index) => {
      inspectEntry(entry, { ...named, eventIndex, index }, known, reading, result);
    });
  });
  markDuplicates(result, reading);
  return result;
}

function inspectEntry(
  entry: JsonNode,
  at: Position,
  event: string,
  reading: Reading,
  result: Inspection,
): void {
  const { source } = reading;
  const { findings } = result;
  if (entry.kind !== 'object') {
    findings.push(finding('entry-not-object', 'voids-entry', source, at));
    return;
  }
  const nested = memberValue(entry, 'hooks');
  if (nested?.kind === 'array') {
    findings.push(finding('claude-style-entry', 'voids-entry', source, at));
    return;
  }
  const command = memberValue(entry, 'command');
  const text = command?.kind === 'string' ? command.value : undefined;
  const ours = text !== undefined && text === reading.ownedCommand ? { ours: true as const } : {};
  for (const field of wrongFields(entry)) {
    findings.push(finding('field-type', 'voids-entry', source, { ...at, field, ...ours }));
  }
  if (command === undefined && !isPromptEntry(entry)) {
    findings.push(finding('command-missing', 'voids-entry', source, at));
  }
  if (text === undefined) return;
  if (reading.windows && beginsWithQuotedPath(text)) {
    findings.push(finding('windows-quoted-path', 'voids-entry', source, { ...at, ...ours }));
  }
  result.sites.push({ command: text, cursorEvent: event, at });
}

/** The known fields of `entry` whose value has the wrong JSON type, in table order. */
export function wrongFields(entry: JsonObject): string[] {
  return Object.entries(ENTRY_FIELDS).flatMap(([field, rule]) => {
    const value = memberValue(entry, field);
    if (value === undefined) return [];
    const kindFits = rule.kinds.includes(kindOf(value));
    const valueFits =
      !rule.nonNegativeInteger || value.kind !== 'number' || isNonNegativeInteger(value);
    return kindFits && valueFits ? [] : [field];
  });
}

function isPromptEntry(entry: JsonObject): boolean {
  const type = memberValue(entry, 'type');
  return type?.kind === 'string' && type.value === PROMPT_TYPE;
}

/**
 * A command twice in one event fires twice. Ours counts anywhere in the file: a copy in another
 * event runs our observer for that event too. A copy of ours outside the user file is reported
 * as `owned-elsewhere` instead.
 */
function markDuplicates(result: Inspection, reading: Reading): void {
  const { source, ownedCommand } = reading;
  const seen = new Set<string>();
  for (const site of result.sites) {
    const isOurs = site.command === ownedCommand;
    if (isOurs && source !== 'user') {
      result.findings.push(
        finding('owned-elsewhere', 'fires-twice', source, { ...site.at, ours: true }),
      );
      continue;
    }
    const key = isOurs ? `\u0000${site.command}` : `${site.cursorEvent}\u0000${site.command}`;
    if (seen.has(key)) {
      const mark = isOurs ? { ours: true as const } : {};
      result.findings.push(
        finding('command-duplicated', 'fires-twice', source, { ...site.at, ...mark }),
      );
    }
    seen.add(key);
  }
}
