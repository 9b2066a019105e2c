// The heartbeat file: one atomic write per stop, mode 0600, the schema's five facts and nothing
// else from the payload, a count carried over from a previous file only when it is a heartbeat.
import { spawn } from 'node:child_process';
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeHeartbeat } from '../../src/observer/heartbeat-write.js';
import { lastStopOf, MAX_HEARTBEAT_BYTES } from '../../src/shell/heartbeat-record.js';
import { judgeStopPayload } from '../../src/shell/stop-event.js';
import { expectSchema } from '../cli/schema-check.js';
import { requireBuiltObserver } from './built.js';
import { stopPayload, VERSION } from './payloads.js';
import { runObserver } from './run-observer.js';

const SCRIPT = new URL('fixtures/behaviours.mjs', import.meta.url).pathname;
const READ_LOOP = new URL('fixtures/read-loop.mjs', import.meta.url).pathname;
const directories: string[] = [];
function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'cursorhooks-heartbeat-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8'));
const stop = (fields: Record<string, unknown> = {}) =>
  lastStopOf(stopPayload(fields), null, new Date());

/** One stop answered by the built observer, its heartbeat at `path`, under umask 000. */
async function observedStop(
  path: string,
  stdin = JSON.stringify(stopPayload()),
  env: Record<string, string> = {},
  behaviour = 'neutral',
) {
  const command = `umask 000; exec "${process.execPath}" "${SCRIPT}" ${behaviour}`;
  const run = await runObserver('/bin/sh', ['-c', command], {
    stdin,
    env: { HEARTBEAT: path, CONTRACT: VERSION, ...env },
  });
  expect(run.stdout).toBe('{}\n');
  expect(run.code).toBe(0);
  return run;
}

describe('the heartbeat of the built observer', () => {
  beforeAll(requireBuiltObserver);

  it('records each stop in a 0600 file that matches schemas/heartbeat.json, leaving no temporary file (red: a torn, world-readable or schema-breaking heartbeat)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    await observedStop(path);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    const first = readJson(path);
    expectSchema('heartbeat', first);
    expect(first).toEqual({
      version: 1,
      stops: 1,
      lastStop: {
        at: expect.stringMatching(/Z$/),
        cursorVersion: VERSION,
        verdict: 'qualified',
        status: 'completed',
        loopCount: 0,
      },
    });
    await observedStop(
      path,
      JSON.stringify(stopPayload({ cursor_version: '3.41.0', loop_count: 2 })),
    );
    const second = readJson(path);
    expectSchema('heartbeat', second);
    expect(second).toMatchObject({
      stops: 2,
      lastStop: { cursorVersion: '3.41.0', verdict: 'version-differs', loopCount: 2 },
    });
    expect(readdirSync(directory)).toEqual(['heartbeat.json']);
  });

  it('marks a stop fired with CURSORHOOKS_SIMULATED=stop as simulated, and tells the handler (red: simulate-stop reads as a stop Cursor ran)', async () => {
    const path = join(scratch(), 'heartbeat.json');
    const run = await observedStop(path, undefined, { CURSORHOOKS_SIMULATED: 'stop' }, 'report');
    const simulated = readJson(path);
    expectSchema('heartbeat', simulated);
    expect(simulated).toMatchObject({ stops: 1, lastStop: { simulated: true } });
    expect(run.stderr).toContain('"simulated":"stop"');
    // Cursor sets no mark: its stop is recorded without one, and an unknown value is no mark.
    await observedStop(path, undefined, { CURSORHOOKS_SIMULATED: 'yes' });
    const cursors = readJson(path);
    expect(cursors).toMatchObject({ stops: 2 });
    expect(Object.keys(cursors.lastStop as object)).not.toContain('simulated');
  });

  it('leaves the heartbeat untouched for a conformance case, CURSORHOOKS_SIMULATED=conformance (red: the matrix overwrites the last stop Cursor ran)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    await observedStop(path);
    const before = readFileSync(path, 'utf8');
    const run = await observedStop(
      path,
      JSON.stringify(stopPayload({ cursor_version: '3.41.0' })),
      { CURSORHOOKS_SIMULATED: 'conformance' },
      'report',
    );
    expect(run.stderr).toContain('"simulated":"conformance"');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(directory)).toEqual(['heartbeat.json']);
  });

  it('writes no conversation id, e-mail, path or prompt of a real payload (red: the heartbeat leaks the payload)', async () => {
    const path = join(scratch(), 'heartbeat.json');
    const payload = stopPayload({ prompt: 'secret prompt text', model: 'secret-model-name' });
    await observedStop(path, JSON.stringify(payload));
    const text = readFileSync(path, 'utf8');
    for (const key of [
      'conversation_id',
      'generation_id',
      'user_email',
      'transcript_path',
      'prompt',
      'model',
    ]) {
      expect(text).not.toContain(String(payload[key]));
    }
    expect(text).not.toContain('/home/user');
  });

  it('records an unreadable payload as a stop with null facts (red: a broken payload leaves no trace of the stop)', async () => {
    const path = join(scratch(), 'heartbeat.json');
    await observedStop(path, '\u00ff not json');
    expect(readJson(path)).toMatchObject({
      stops: 1,
      lastStop: {
        cursorVersion: null,
        verdict: 'payload-unreadable',
        status: null,
        loopCount: null,
      },
    });
  });

  // Twelve observers write while a reader reads as fast as it can: each text it saw is whole.
  it('never shows a torn file to a reader while concurrent stops write it, and the last writer wins (red: a reader sees an empty or partial heartbeat)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    const done = join(directory, 'done');
    const reader = spawn(process.execPath, [READ_LOOP, path, done], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let seen = '';
    reader.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
    const ended = new Promise((resolve) => reader.on('close', resolve));
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 12 }, () => observedStop(path)));
    }
    writeFileSync(done, '');
    await ended;
    const texts = JSON.parse(seen) as string[];
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expectSchema('heartbeat', JSON.parse(text));
    expectSchema('heartbeat', readJson(path));
    expect(readdirSync(directory).sort()).toEqual(['done', 'heartbeat.json']);
  });
});

describe('writeHeartbeat', () => {
  // Every field of the payload, and unknown ones, get a planted text: none may reach the file.
  // cursor_version is recorded by design, so it is planted with a character no version has.
  it('never writes a planted payload text, whatever the fields hold (red: a hostile payload plants text in the heartbeat)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    const planted = fc
      .string({ minLength: 1, maxLength: 40, unit: 'binary' })
      .map((s) => `PLANT${s}`);
    const unversionLike = planted.map((s) => `${s}/`);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          conversation_id: planted,
          generation_id: planted,
          hook_event_name: planted,
          workspace_roots: fc.array(planted, { maxLength: 3 }),
          model: planted,
          cursor_version: unversionLike,
          user_email: planted,
          transcript_path: planted,
          status: planted,
          loop_count: planted,
          prompt: planted,
        }),
        fc.dictionary(planted, planted, { maxKeys: 3 }),
        async (fields, unknown) => {
          const payload = { ...unknown, ...fields };
          const check = judgeStopPayload(payload, VERSION);
          await writeHeartbeat(path, lastStopOf(payload, check, new Date()), new Set());
          const text = readFileSync(path, 'utf8');
          const texts = [
            ...Object.values(fields).flat(),
            ...Object.keys(unknown),
            ...Object.values(unknown),
          ];
          for (const value of texts) {
            expect(text).not.toContain(value);
            expect(text).not.toContain(JSON.stringify(value).slice(1, -1));
          }
          expectSchema('heartbeat', JSON.parse(text));
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([
    ['not JSON', 'stops: 41'],
    ['another version', '{"version": 2, "stops": 41}'],
    ['a negative count', '{"version": 1, "stops": -4}'],
    ['a count that is no whole number', '{"version": 1, "stops": 4.5}'],
    [
      'larger than 64 KiB',
      `{"version": 1, "stops": 41, "x": "${' '.repeat(MAX_HEARTBEAT_BYTES)}"}`,
    ],
  ])(
    'starts the count again after a previous file that is %s (red: a bad file poisons the count or the write)',
    async (_, previous) => {
      const path = join(scratch(), 'heartbeat.json');
      writeFileSync(path, previous);
      await writeHeartbeat(path, stop(), new Set());
      expect(readJson(path).stops).toBe(1);
    },
  );

  it('carries the count over from a previous heartbeat (red: every stop counts as the first)', async () => {
    const path = join(scratch(), 'heartbeat.json');
    writeFileSync(path, '{"version": 1, "stops": 41}');
    await writeHeartbeat(path, stop(), new Set());
    expect(readJson(path).stops).toBe(42);
  });

  it('replaces a symbolic link at the path instead of following it (red: a planted link makes the observer write through it)', async () => {
    const directory = scratch();
    const target = join(directory, 'target.json');
    writeFileSync(target, '{"version": 1, "stops": 41}');
    const path = join(directory, 'heartbeat.json');
    symlinkSync(target, path);
    await writeHeartbeat(path, stop(), new Set());
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readJson(path).stops).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('{"version": 1, "stops": 41}');
    expect(() => readlinkSync(path)).toThrow();
  });

  it('is not held by a FIFO at the path, and replaces it (red: a planted FIFO blocks every stop)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    const made = spawn('mkfifo', [path]);
    await new Promise((resolve) => made.on('close', resolve));
    await writeHeartbeat(path, stop(), new Set());
    expect(readJson(path).stops).toBe(1);
  });

  it('fails on a directory at the path and leaves no temporary file (red: a failed write leaves litter beside the heartbeat)', async () => {
    const directory = scratch();
    const path = join(directory, 'heartbeat.json');
    const made = spawn('mkdir', [path]);
    await new Promise((resolve) => made.on('close', resolve));
    const pending = new Set<string>();
    await expect(writeHeartbeat(path, stop(), pending)).rejects.toMatchObject({
      code: expect.any(String),
    });
    expect(pending.size).toBe(0);
    expect(readdirSync(directory)).toEqual(['heartbeat.json']);
  });
});
