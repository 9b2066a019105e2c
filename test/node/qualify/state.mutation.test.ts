// The state file's decoder field by field: every key, type and phase it accepts or refuses, the
// finishing record, the size and encoding bounds, and the bytes writeState leaves.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type ProbeState, readState, writeState } from '../../../src/node/qualify/state.js';
import { nodeFs } from '../../../src/node/write/fs-seam.js';
import { hostFailure, tempDir } from '../support.js';
import { aRecord, recordingSeam } from './support.js';

const WAITING: ProbeState = {
  version: 1,
  phase: 'waiting',
  family: 'posix-single-quote',
  hooksFile: '/home/u/.cursor/hooks.json',
  hooksExisted: true,
  recorder: '/opt/rec',
  argv: ['/opt/rec', 'cursor-event', 'stop', '', "it's"],
  command: "/opt/rec cursor-event stop '' 'it'\\''s'",
  startedAt: '2026-01-02T03:04:05.000Z',
  finishing: null,
};

let record: unknown;
beforeAll(async () => {
  record = await aRecord();
});

function stateFile(): string {
  return join(tempDir(), 'qualification.json');
}

/** The state file holding `text`, read back. */
function readText(text: string | Uint8Array): Promise<ProbeState | undefined> {
  const file = stateFile();
  writeFileSync(file, text);
  return readState(file, nodeFs);
}

const readJson = (value: unknown) => readText(JSON.stringify(value));

describe('readState', () => {
  it('reads back every field of a state it wrote (red: a field dropped, renamed or taken from another)', async () => {
    const file = stateFile();
    await writeState(file, WAITING, nodeFs);
    expect(await readState(file, nodeFs)).toStrictEqual(WAITING);
    const other = { ...WAITING, phase: 'starting' as const, hooksExisted: false, argv: [] };
    await writeState(file, other, nodeFs);
    expect(await readState(file, nodeFs)).toStrictEqual(other);
  });

  it('reads each of the four phases (red: a phase dropped from the list)', async () => {
    for (const phase of ['starting', 'waiting', 'cancelling'] as const) {
      expect((await readJson({ ...WAITING, phase }))?.phase).toBe(phase);
    }
    const finishing = { out: '/tmp/record.json', record };
    const read = await readJson({ ...WAITING, phase: 'finishing', finishing });
    expect(read?.phase).toBe('finishing');
    expect(read?.finishing).toStrictEqual(finishing);
  });

  it('is undefined for an absent state file (red: absence read as malformed or as a state)', async () => {
    expect(await readState(join(tempDir(), 'qualification.json'), nodeFs)).toBeUndefined();
  });

  it('names the file, the probe role and qualify-state-malformed (red: a bare error, or the wrong file)', async () => {
    const file = stateFile();
    writeFileSync(file, '{');
    const err = await hostFailure(readState(file, nodeFs));
    expect(err).toMatchObject({ reason: 'qualify-state-malformed', path: file, role: 'probe' });
    expect(err.code).toBeUndefined();
  });

  it('a state file that cannot be read fails with the probe role (red: the read names another role)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'qualification.json'));
    const err = await hostFailure(readState(join(dir, 'qualification.json'), nodeFs));
    expect(err.role).toBe('probe');
    expect(err.reason).not.toBe('qualify-state-malformed');
  });

  it('reads an empty state file once, without the settle delay (red: status waits 100 ms and reads twice)', async () => {
    const file = stateFile();
    writeFileSync(file, '');
    const { fs, calls } = recordingSeam();
    const err = await hostFailure(readState(file, fs));
    expect(err.reason).toBe('qualify-state-malformed');
    expect(calls.filter((call) => call.name === 'open')).toHaveLength(1);
  });

  it.each([
    ['an empty file', ''],
    ['not JSON', '{"version": 1'],
    ['null', 'null'],
    ['a number', '1'],
    ['a string', '"waiting"'],
    ['an array', '[]'],
  ])('refuses %s (red: it is taken for a state)', async (_, text) => {
    const err = await hostFailure(readText(text));
    expect(err.reason).toBe('qualify-state-malformed');
  });

  it.each<[string, Record<string, unknown>]>([
    ['an unknown key beside the others', { probeDir: '/home' }],
    ['version 2', { version: 2 }],
    ['version "1"', { version: '1' }],
    ['an unknown phase', { phase: 'done' }],
    ['a family that is not a string', { family: 1 }],
    ['a hook file that is not a string', { hooksFile: null }],
    ['a recorder that is not a string', { recorder: ['/opt/rec'] }],
    ['a command that is not a string', { command: 7 }],
    ['a start time that is not a string', { startedAt: 0 }],
    ['hooksExisted as a string', { hooksExisted: 'true' }],
    ['argv that is not an array', { argv: '/opt/rec' }],
    ['argv holding a number', { argv: ['/opt/rec', 1] }],
    ['argv holding null last', { argv: ['/opt/rec', 'x', null] }],
    ['a finishing part outside phase finishing', { finishing: { out: '/o', record: {} } }],
  ])('refuses %s (red: a hand-edited state is trusted)', async (_, change) => {
    const err = await hostFailure(readJson({ ...WAITING, ...change }));
    expect(err.reason).toBe('qualify-state-malformed');
  });

  it('refuses a state missing a key, one key at a time (red: a missing field reads as undefined)', async () => {
    for (const key of Object.keys(WAITING)) {
      const { [key]: _, ...rest } = WAITING as unknown as Record<string, unknown>;
      const err = await hostFailure(readJson(rest));
      expect(err.reason, key).toBe('qualify-state-malformed');
    }
  });

  it.each<[string, unknown]>([
    ['no finishing part', null],
    ['an out that is not a string', { out: 1, record: 'RECORD' }],
    ['a key beside out and record', { out: '/o', record: 'RECORD', extra: 1 }],
    ['a record readRecord refuses', { out: '/o', record: { id: 'x' } }],
  ])('phase finishing refuses %s (red: finish writes a record nobody checked)', async (_, part) => {
    const finishing =
      part !== null &&
      typeof part === 'object' &&
      (part as { record?: unknown }).record === 'RECORD'
        ? { ...part, record }
        : part;
    const err = await hostFailure(readJson({ ...WAITING, phase: 'finishing', finishing }));
    expect(err.reason).toBe('qualify-state-malformed');
  });
});

describe('the module constants, through a fresh import', () => {
  async function fresh() {
    vi.resetModules();
    return import('../../../src/node/qualify/state.js');
  }

  it('reads every phase and a state of exactly 1 MiB, and refuses one byte more (red: a key or phase list emptied or the bound moved)', async () => {
    const state = await fresh();
    for (const phase of ['starting', 'waiting', 'cancelling'] as const) {
      const file = stateFile();
      writeFileSync(file, JSON.stringify({ ...WAITING, phase }));
      expect((await state.readState(file, nodeFs))?.phase).toBe(phase);
    }
    const file = stateFile();
    writeFileSync(
      file,
      JSON.stringify({ ...WAITING, phase: 'finishing', finishing: { out: '/o', record } }),
    );
    expect((await state.readState(file, nodeFs))?.phase).toBe('finishing');

    const text = JSON.stringify(WAITING);
    const exact = text + ' '.repeat(1024 * 1024 - text.length);
    writeFileSync(file, exact);
    expect(await state.readState(file, nodeFs)).toStrictEqual(WAITING);
    writeFileSync(file, `${exact} `);
    const err = await hostFailure(state.readState(file, nodeFs));
    expect(err.reason).toBe('qualify-state-malformed');
  });

  it('refuses a byte that is not UTF-8 inside a string (red: it decodes as U+FFFD and reads)', async () => {
    const state = await fresh();
    const text = new TextEncoder().encode(JSON.stringify({ ...WAITING, command: 'AB' }));
    const at = text.indexOf(0x41);
    text[at] = 0xff;
    const file = stateFile();
    writeFileSync(file, text);
    const err = await hostFailure(state.readState(file, nodeFs));
    expect(err.reason).toBe('qualify-state-malformed');
  });
});

describe('writeState', () => {
  it('writes the state as two-space JSON ending in a newline, mode 0600 (red: other bytes, or a file others can read)', async () => {
    const file = stateFile();
    await writeState(file, WAITING, nodeFs);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(WAITING, null, 2)}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await writeState(file, { ...WAITING, phase: 'cancelling' }, nodeFs);
    expect(JSON.parse(readFileSync(file, 'utf8')).phase).toBe('cancelling');
  });
});
