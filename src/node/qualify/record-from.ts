// A QualificationRecord built from what was recorded, never from what anyone typed: the version
// is the one Cursor reported, the platform and arch the host's, the date the finish's.

import { ConflictError } from '../../errors/errors.js';
import type { GrammarFamily } from '../../shell/families.js';
import {
  QUALIFICATION_RECORD_VERSION,
  type QualificationRecord,
  type RecordedInvocation,
  readRecord,
} from '../../shell/qualification-record.js';
import { parsePayload } from '../../shell/stop-event.js';
import type { Recording } from './recording.js';

const CLIENT = 'Cursor';
// What a record can list; a real stop payload has about ten fields.
const MAX_FIELDS = 64;

export interface RecordFacts {
  readonly family: GrammarFamily;
  readonly argv: readonly string[];
  readonly command: string;
  /** Every recording, all of which matched `argv`. */
  readonly recordings: readonly Recording[];
  readonly id: string | undefined;
  readonly platform: string;
  readonly arch: string;
  readonly date: string;
}

export function recordFrom(facts: RecordFacts): QualificationRecord {
  const invocations = facts.recordings.map(invocationOf);
  // A stop that reported no version says nothing about the build: it is counted in the run and
  // ignored, so one stray recording does not block the stops that did report one.
  const versioned = invocations.filter((seen) => versionsOf(seen).length > 0);
  const reported = new Set(versioned.flatMap(versionsOf));
  if (reported.size === 0) throw new ConflictError('qualify-version-unreported');
  if (reported.size > 1) throw new ConflictError('qualify-version-conflict');
  const version = [...reported][0] as string;
  const recorded = versioned[0] as RecordedInvocation;
  const ignored = invocations.length - versioned.length;
  const sources = [
    recorded.cursorVersion === null ? [] : ['cursor_version on stdin'],
    recorded.cursorVersionEnv === null ? [] : ['CURSOR_VERSION in the environment'],
  ].flat();
  const record = {
    version: QUALIFICATION_RECORD_VERSION,
    id: facts.id ?? defaultId(version, facts.platform, facts.family),
    family: facts.family.id,
    evidence: {
      client: CLIENT,
      version,
      platform: facts.platform,
      arch: facts.arch,
      date: facts.date,
      run: `cursorhooks qualify: ${invocations.length} recorded stop invocation(s), every one matching the intended argv${ignored === 0 ? '' : `; ${ignored} of them reported no Cursor version and were ignored`}`,
      observed: [
        `Cursor ${version} ran the probe's stop command, its version reported by ${sources.join(' and ')}`,
        `every recorded invocation received the intended ${facts.argv.length} argv tokens byte for byte`,
        'the payload on stdin named the event stop (its field names are in probe.recorded)',
      ],
      notObserved: [
        'any other Cursor build, platform or architecture',
        'hook shells or launchers other than the one this Cursor used here',
        'events other than stop',
        "delivery of the host's own notifications",
      ],
      artifacts: [],
    },
    probe: { argv: [...facts.argv], command: facts.command, recorded },
  };
  // The same strict check every --contract-file gets: what finish writes, a host can load.
  return readRecord(record);
}

/** Whether a recording names a Cursor version at all (on stdin or in the environment). */
export function reportsVersion(recording: Recording): boolean {
  return versionsOf(invocationOf(recording)).length > 0;
}

function versionsOf(seen: RecordedInvocation): string[] {
  return [seen.cursorVersion, seen.cursorVersionEnv].filter((version) => version !== null);
}

function invocationOf(recording: Recording): RecordedInvocation {
  const payload = parsePayload(recording.stdin);
  const text = (key: string) => (typeof payload?.[key] === 'string' ? payload[key] : null);
  return {
    argv: recording.argv,
    cwd: recording.cwd,
    hookEventName: text('hook_event_name'),
    cursorVersion: text('cursor_version'),
    status: text('status'),
    payloadFields: payload === undefined ? [] : Object.keys(payload).sort().slice(0, MAX_FIELDS),
    cursorVersionEnv: recording.cursorVersionEnv,
  };
}

/** `cursor-<version>-<platform>-<family>`, lower-case words joined by dots or dashes. */
export function defaultId(version: string, platform: string, family: GrammarFamily): string {
  const words = `cursor-${version}-${platform}-${family.id}`
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/[.-]{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return words.slice(0, 128).replace(/[.-]+$/, '');
}
