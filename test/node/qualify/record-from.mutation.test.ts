// recordFrom and defaultId: the record finish writes is built from what was recorded, field by
// field; which version counts, where it came from, what the payload contributes, and the id.
import { describe, expect, it, vi } from 'vitest';
import { ConflictError, UnsupportedError } from '../../../src/errors/errors.js';
import { defaultId, type RecordFacts, recordFrom } from '../../../src/node/qualify/record-from.js';
import type { Recording } from '../../../src/node/qualify/recording.js';
import { type GrammarFamily, grammarFamily } from '../../../src/shell/families.js';

const FAMILY = grammarFamily('posix-single-quote') as GrammarFamily;
const ARGV = ['/p/record stop', 'cursor-event', 'stop', '--binding', '/p/binding.json', ''];
const COMMAND = FAMILY.render(ARGV);

function recording(fields: Partial<Recording> & { payload?: unknown } = {}): Recording {
  const { payload = { hook_event_name: 'stop', cursor_version: '3.24.0' }, ...rest } = fields;
  return {
    name: 'rec-1',
    argv: ARGV,
    cwd: '/home/u/.cursor',
    stdin: new TextEncoder().encode(
      typeof payload === 'string' ? payload : JSON.stringify(payload),
    ),
    cursorVersionEnv: null,
    ...rest,
  };
}

function facts(recordings: readonly Recording[], more: Partial<RecordFacts> = {}): RecordFacts {
  return {
    family: FAMILY,
    argv: ARGV,
    command: COMMAND,
    recordings,
    id: undefined,
    platform: 'linux',
    arch: 'x64',
    date: '2026-12-06T00:00:00.000Z',
    ...more,
  };
}

function refusal(run: () => unknown): { kind: unknown; reason: string } {
  try {
    run();
  } catch (err) {
    return { kind: (err as object).constructor, reason: (err as { reason: string }).reason };
  }
  throw new Error('no refusal');
}

describe('recordFrom', () => {
  it('builds the whole record: evidence, sources, observed lines, the recorded invocation (red: any field of the record changes)', () => {
    const record = recordFrom(
      facts([
        recording({
          payload: { status: 'completed', hook_event_name: 'stop', cursor_version: '3.24.0' },
          cursorVersionEnv: '3.24.0',
        }),
      ]),
    );
    expect(record).toEqual({
      version: 1,
      id: 'cursor-3.24.0-linux-posix-single-quote',
      family: 'posix-single-quote',
      evidence: {
        client: 'Cursor',
        version: '3.24.0',
        platform: 'linux',
        arch: 'x64',
        date: '2026-12-06T00:00:00.000Z',
        run: 'cursorhooks qualify: 1 recorded stop invocation(s), every one matching the intended argv',
        observed: [
          "Cursor 3.24.0 ran the probe's stop command, its version reported by cursor_version on stdin and CURSOR_VERSION in the environment",
          'every recorded invocation received the intended 6 argv tokens byte for byte',
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
      probe: {
        argv: ARGV,
        command: COMMAND,
        recorded: {
          argv: ARGV,
          cwd: '/home/u/.cursor',
          hookEventName: 'stop',
          cursorVersion: '3.24.0',
          status: 'completed',
          payloadFields: ['cursor_version', 'hook_event_name', 'status'],
          cursorVersionEnv: '3.24.0',
        },
      },
    });
  });

  it('names stdin alone when only the payload reported the version (red: the environment is claimed as a source)', () => {
    const record = recordFrom(facts([recording()]));
    expect(record.evidence.observed[0]).toBe(
      "Cursor 3.24.0 ran the probe's stop command, its version reported by cursor_version on stdin",
    );
    expect(record.probe.recorded.status).toBeNull();
    expect(record.probe.recorded.cursorVersionEnv).toBeNull();
  });

  it('names the environment alone when only CURSOR_VERSION reported it (red: stdin is claimed as a source)', () => {
    const record = recordFrom(
      facts([recording({ payload: { hook_event_name: 'stop' }, cursorVersionEnv: '3.24.1' })]),
    );
    expect(record.evidence.version).toBe('3.24.1');
    expect(record.evidence.observed[0]).toBe(
      "Cursor 3.24.1 ran the probe's stop command, its version reported by CURSOR_VERSION in the environment",
    );
    expect(record.probe.recorded.cursorVersion).toBeNull();
  });

  it('no version anywhere: qualify-version-unreported, a ConflictError (red: a record with a null version, or another refusal)', () => {
    expect(
      refusal(() => recordFrom(facts([recording({ payload: { hook_event_name: 'stop' } })]))),
    ).toEqual({ kind: ConflictError, reason: 'qualify-version-unreported' });
  });

  it('a non-string cursor_version on stdin does not count as reported (red: a number becomes the version)', () => {
    expect(
      refusal(() =>
        recordFrom(facts([recording({ payload: { hook_event_name: 'stop', cursor_version: 3 } })])),
      ),
    ).toEqual({ kind: ConflictError, reason: 'qualify-version-unreported' });
  });

  it('stdin and the environment of one invocation disagreeing: qualify-version-conflict (red: one of two builds is claimed)', () => {
    expect(refusal(() => recordFrom(facts([recording({ cursorVersionEnv: '3.25.0' })])))).toEqual({
      kind: ConflictError,
      reason: 'qualify-version-conflict',
    });
  });

  it('two invocations reporting the same version from different sources make one record of the first invocation (red: a conflict among equal versions, or the last invocation recorded)', () => {
    const first = recording({ name: 'rec-1', cwd: '/first' });
    const second = recording({
      name: 'rec-2',
      cwd: '/second',
      payload: { hook_event_name: 'stop' },
      cursorVersionEnv: '3.24.0',
    });
    const record = recordFrom(facts([first, second]));
    expect(record.evidence.version).toBe('3.24.0');
    expect(record.evidence.run).toBe(
      'cursorhooks qualify: 2 recorded stop invocation(s), every one matching the intended argv',
    );
    expect(record.probe.recorded.cwd).toBe('/first');
    expect(record.evidence.observed[0]).toMatch(/by cursor_version on stdin$/);
  });

  it('a versionless invocation beside a versioned one is ignored and counted: the record describes the versioned one (red: record-version-mismatch from describing the versionless one, or qualify-version-unreported)', () => {
    const versionless = recording({
      name: 'rec-1',
      cwd: '/none',
      payload: { hook_event_name: 'stop' },
    });
    const versioned = recording({ name: 'rec-2', cwd: '/versioned' });
    const record = recordFrom(facts([versionless, versioned]));
    expect(record.evidence.version).toBe('3.24.0');
    expect(record.probe.recorded.cwd).toBe('/versioned');
    expect(record.evidence.run).toBe(
      'cursorhooks qualify: 2 recorded stop invocation(s), every one matching the intended argv; 1 of them reported no Cursor version and were ignored',
    );
  });

  it('keeps the first 64 payload field names, sorted, never the values (red: unsorted, unbounded, or cut short)', () => {
    const payload: Record<string, string> = { hook_event_name: 'stop', cursor_version: '3.24.0' };
    for (let i = 99; i >= 20; i--) payload[`f${i}`] = 'secret';
    const fields = recordFrom(facts([recording({ payload })])).probe.recorded.payloadFields;
    const sorted = Object.keys(payload).sort();
    expect(fields).toEqual(sorted.slice(0, 64));
    expect(fields).toHaveLength(64);
    expect(fields[0]).toBe('cursor_version');
  });

  it('a payload that is not a JSON object lists no fields and names no event, so the record is refused as not stop (red: a crash on a missing payload)', () => {
    expect(
      refusal(() =>
        recordFrom(facts([recording({ payload: '[1, 2]', cursorVersionEnv: '3.24.0' })])),
      ),
    ).toEqual({ kind: UnsupportedError, reason: 'record-event-not-stop' });
  });

  it('a non-string hook_event_name reads as none (red: any value passes for the stop event)', () => {
    expect(
      refusal(() =>
        recordFrom(
          facts([recording({ payload: { hook_event_name: 1, cursor_version: '3.24.0' } })]),
        ),
      ),
    ).toEqual({ kind: UnsupportedError, reason: 'record-event-not-stop' });
  });

  it('a given id is the record id; the default derives from version, platform and family (red: the id is ignored or the default misses a part)', () => {
    expect(recordFrom(facts([recording()], { id: 'my-id.1' })).id).toBe('my-id.1');
    expect(recordFrom(facts([recording()], { platform: 'darwin' })).id).toBe(
      'cursor-3.24.0-darwin-posix-single-quote',
    );
  });
});

describe('defaultId', () => {
  it('lower-cases, turns every run of other characters into one dash (red: capitals or symbols survive)', () => {
    expect(defaultId('3.24.0 Beta (Build 7)', 'Linux', FAMILY)).toBe(
      'cursor-3.24.0-beta-build-7-linux-posix-single-quote',
    );
  });

  it('collapses runs of dots and dashes into one dash (red: "..", "-." or "--" stay in the id)', () => {
    expect(defaultId('3...24.-0', 'linux', FAMILY)).toBe('cursor-3-24-0-linux-posix-single-quote');
    expect(defaultId('3', '.linux.', FAMILY)).toBe('cursor-3-linux-posix-single-quote');
  });

  it('keeps single dots and dashes between words (red: every dot becomes a dash)', () => {
    expect(defaultId('1.2-rc', 'linux', FAMILY)).toBe('cursor-1.2-rc-linux-posix-single-quote');
  });

  it('trims dots and dashes off the end, also for a family id that ends in one (red: a trailing separator)', () => {
    const family = { ...FAMILY, id: 'fam.' } as unknown as GrammarFamily;
    expect(defaultId('3', 'linux', family)).toBe('cursor-3-linux-fam');
    const dashed = { ...FAMILY, id: 'fam--' } as unknown as GrammarFamily;
    expect(defaultId('3', 'linux', dashed)).toBe('cursor-3-linux-fam');
  });

  it('cuts a long id to 128 characters and trims the separator the cut leaves at its end (red: too long, or ending in a dash)', () => {
    const id = defaultId(`${'a'.repeat(120)}-bcdefgh`, 'linux', FAMILY);
    // cursor- (7) + 120 a's = 127 characters, then the dash at 128 is cut off.
    expect(id).toBe(`cursor-${'a'.repeat(120)}`);
    const long = defaultId('b'.repeat(200), 'linux', FAMILY);
    expect(long).toBe(`cursor-${'b'.repeat(121)}`);
    expect(long).toHaveLength(128);
  });
});

describe('module constants, read from a fresh copy of the module', () => {
  it('the client is Cursor (red: a record naming no client)', async () => {
    vi.resetModules();
    const fresh = await import('../../../src/node/qualify/record-from.js');
    expect(fresh.recordFrom(facts([recording()])).evidence.client).toBe('Cursor');
  });
});
