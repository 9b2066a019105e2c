// The heartbeat kept in the ledger (install --heartbeat), what status makes of the file the
// observer writes there, and the requalify step after a stop from another Cursor version.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';
import { Operation } from '../../src/index.js';
import { commitPending } from '../../src/node/ledger/fence.js';
import { decodeLedger, EMPTY_RECORD } from '../../src/node/ledger/ledger.js';
import { heartbeatPathProblem } from '../../src/node/status/heartbeat-path.js';
import { MAX_HEARTBEAT_BYTES, readLiveness } from '../../src/node/status/liveness.js';
import { QUALIFY_STATE_DIRECTORY, readStatus } from '../../src/node/status/status.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { OTHER_SPEC } from '../planner/support.js';
import { ledgerRefusal, operate, recordOf, type Where, workspace } from './support.js';

const AT_INSTALL = new Date('2026-12-01T10:00:00.000Z');
const clock = (date: Date) => () => date;

/** The contract the kit tests install with, and its evidence's version. */
const QUALIFIED = '3.22.12';

const lastStop = (fields: Record<string, unknown> = {}) => ({
  at: '2026-12-01T10:05:00.000Z',
  cursorVersion: QUALIFIED,
  verdict: 'qualified',
  status: 'completed',
  loopCount: 0,
  ...fields,
});
const heartbeatText = (last: unknown = lastStop(), extra: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 1, stops: 3, lastStop: last, ...extra });

async function withHeartbeat(): Promise<Where & { heartbeat: string }> {
  const where = workspace();
  const heartbeat = join(where.dir, 'state', 'heartbeat.json');
  mkdirSync(dirname(heartbeat));
  const outcome = await operate(where, Operation.Install, { heartbeat, now: clock(AT_INSTALL) });
  expect(outcome.status).toBe('done');
  return { ...where, heartbeat };
}

const status = (where: Where) => readStatus({ hooksFile: where.hooks, ledger: where.ledger });

describe('the ledger keeps the heartbeat of an install', () => {
  it('records the path with the install time (red: --heartbeat is dropped on the way to the ledger)', async () => {
    const where = await withHeartbeat();
    expect((await recordOf(where)).heartbeat).toEqual({
      path: where.heartbeat,
      installedAt: AT_INSTALL.toISOString(),
    });
  });

  it('leaves a repeated install with the same heartbeat a no-op that writes nothing (red: every install re-dates the record)', async () => {
    const where = await withHeartbeat();
    const before = readFileSync(where.ledger, 'utf8');
    const again = await operate(where, Operation.Install, {
      heartbeat: where.heartbeat,
      now: clock(new Date('2026-12-02T00:00:00.000Z')),
    });
    expect(again.status).toBe('no-op');
    expect(readFileSync(where.ledger, 'utf8')).toBe(before);
  });

  it('records a new heartbeat on an install whose entry is already in place (red: the early no-op skips the ledger)', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    const later = new Date('2026-12-03T00:00:00.000Z');
    const heartbeat = join(where.dir, 'beat.json');
    const again = await operate(where, Operation.Install, { heartbeat, now: clock(later) });
    expect(again.status).toBe('no-op');
    expect((await recordOf(where)).heartbeat).toEqual({
      path: heartbeat,
      installedAt: later.toISOString(),
    });
  });

  it('keeps the heartbeat through an install without one, an update and a remove (red: following status advice loses it)', async () => {
    const where = await withHeartbeat();
    const kept = (await recordOf(where)).heartbeat;
    expect((await operate(where, Operation.Install)).status).toBe('no-op');
    expect((await operate(where, Operation.Update, { spec: OTHER_SPEC })).status).toBe('done');
    expect((await recordOf(where)).heartbeat).toEqual(kept);
    expect((await operate(where, Operation.Remove, { spec: null })).status).toBe('done');
    expect((await recordOf(where)).heartbeat).toEqual(kept);
  });

  it('re-dates the heartbeat when an install writes the entry again after a remove (red: stops before the new install count as seen)', async () => {
    const where = await withHeartbeat();
    expect((await operate(where, Operation.Remove, { spec: null })).status).toBe('done');
    const later = new Date('2026-12-04T00:00:00.000Z');
    expect((await operate(where, Operation.Install, { now: clock(later) })).status).toBe('done');
    expect((await recordOf(where)).heartbeat?.installedAt).toBe(later.toISOString());
  });

  it('refuses a relative heartbeat path and writes nothing (red: a path relative to wherever the host ran is kept)', async () => {
    const where = workspace();
    const outcome = await operate(where, Operation.Install, { heartbeat: 'beat.json' });
    expect(outcome).toMatchObject({ status: 'refused', error: { reason: 'path-not-absolute' } });
    expect(() => readFileSync(where.ledger)).toThrow();
    expect(() => readFileSync(where.hooks)).toThrow();
  });

  it.each([
    [
      'its directory is missing',
      (dir: string) => join(dir, 'no', 'such', 'beat.json'),
      'heartbeat-directory-missing',
    ],
    [
      'its directory is a file',
      (dir: string) => {
        writeFileSync(join(dir, 'plain'), '');
        return join(dir, 'plain', 'beat.json');
      },
      'heartbeat-directory-missing',
    ],
    [
      'its directory lies below a file',
      (dir: string) => {
        writeFileSync(join(dir, 'plain'), '');
        return join(dir, 'plain', 'below', 'beat.json');
      },
      'heartbeat-directory-missing',
    ],
    [
      'its directory is a dangling link',
      (dir: string) => {
        symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
        return join(dir, 'dangling', 'beat.json');
      },
      'heartbeat-directory-missing',
    ],
    [
      'it is a directory',
      (dir: string) => {
        mkdirSync(join(dir, 'beat.json'));
        return join(dir, 'beat.json');
      },
      'heartbeat-is-directory',
    ],
  ])(
    'refuses a heartbeat path when %s, naming it, and writes neither hook file nor ledger (red: a path no observer can ever write is recorded)',
    async (_, pathIn, reason) => {
      const where = workspace();
      writeFileSync(where.hooks, '{"version": 1, "hooks": {}}\n');
      const hooks = readFileSync(where.hooks, 'utf8');
      const heartbeat = pathIn(where.dir);
      for (const dryRun of [true, false]) {
        const outcome = await operate(where, Operation.Install, { heartbeat, dryRun });
        expect(outcome).toMatchObject({ status: 'refused', error: { reason } });
        expect(outcome.error).toMatchObject({ role: 'heartbeat', path: heartbeat });
      }
      expect(readFileSync(where.hooks, 'utf8')).toBe(hooks);
      expect(() => readFileSync(where.ledger)).toThrow();
    },
  );

  // A look that fails with a permission proves nothing: the path is recorded, and the observer
  // warns on the stop it cannot write (red: EACCES taken for a missing directory, or a crash).
  it.each([
    ['lstat', 'lstat'],
    ['realpath', 'realpath'],
  ] as const)(
    'records a heartbeat path whose directory %s refuses a look with EACCES',
    async (_, call) => {
      const denied = Object.assign(new Error('denied'), { code: 'EACCES' });
      const fs = mock<FsSeam>();
      fs.realpath.mockImplementation(async (path) => {
        if (call === 'realpath') throw denied;
        return path;
      });
      fs.lstat.mockImplementation(async (path) => {
        if (call === 'lstat' || path === '/h/state') throw denied;
        throw Object.assign(new Error('absent'), { code: 'ENOENT' });
      });
      const user = { uid: 4321, gids: new Set([4321]) };
      expect(await heartbeatPathProblem('/h/state/beat.json', fs, user)).toBeUndefined();
    },
  );

  // Real directories, judged for a user other than root (whom mode bits never stop): as root the
  // directory is handed to that user first. test/cli/read-only-directory.test.ts runs the same
  // refusal through the CLI as nobody.
  it.each([
    ['without u+w', 0o555, 'heartbeat-directory-not-writable'],
    ['with u+w', 0o755, undefined],
  ] as const)(
    "judges the user's own heartbeat directory %s from its mode bits, through a link (red: a directory the observer can never write a stop in is recorded, or a writable one refused)",
    async (_, mode, reason) => {
      const where = workspace();
      const directory = join(where.dir, 'state');
      mkdirSync(directory);
      symlinkSync(directory, join(where.dir, 'linked'));
      const uid = process.getuid?.() ?? 4321;
      const user = uid === 0 ? 4321 : uid;
      if (uid === 0) chownSync(directory, user, user);
      chmodSync(directory, mode);
      const heartbeat = join(where.dir, 'linked', 'beat.json');
      const problem = await heartbeatPathProblem(heartbeat, nodeFs, {
        uid: user,
        gids: new Set([user]),
      });
      expect(problem?.reason).toBe(reason);
      if (reason !== undefined)
        expect(problem).toMatchObject({ role: 'heartbeat', path: heartbeat });
    },
  );

  it('records a heartbeat path in a directory reached through a link, or one that is a link (red: a linked ~/.cursor is refused)', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'real'));
    symlinkSync(join(where.dir, 'real'), join(where.dir, 'linked'));
    symlinkSync(join(where.dir, 'real'), join(where.dir, 'real', 'beat.json'));
    const heartbeat = join(where.dir, 'linked', 'beat.json');
    expect((await operate(where, Operation.Install, { heartbeat })).status).toBe('done');
    expect((await recordOf(where)).heartbeat?.path).toBe(heartbeat);
  });

  it('carries the heartbeat in the pending install, so a crash settled forward keeps it (red: a crash after the write loses the heartbeat)', () => {
    const heartbeat = { path: '/h/beat.json', installedAt: AT_INSTALL.toISOString() };
    const pending = {
      ...EMPTY_RECORD,
      pending: {
        operation: Operation.Install,
        intended: null,
        heartbeat,
        disable: false,
        contractFile: null,
      },
    };
    expect(commitPending(pending).heartbeat).toEqual(heartbeat);
  });
});

describe('the ledger decodes the heartbeat strictly', () => {
  const v3 = (heartbeat: unknown, pending: unknown = null) =>
    new TextEncoder().encode(
      JSON.stringify({
        cursorhooksLedger: 3,
        files: {
          '/h/hooks.json': {
            generation: 0,
            receipt: null,
            removed: null,
            released: null,
            pending,
            heartbeat,
            disabled: null,
          },
        },
      }),
    );
  it('reads a well-formed heartbeat (red: a valid record is refused)', () => {
    const heartbeat = { path: '/h/beat.json', installedAt: '2026-12-01T10:00:00.000Z' };
    expect(decodeLedger(v3(heartbeat)).get('/h/hooks.json')?.heartbeat).toEqual(heartbeat);
  });

  it.each([
    ['a relative path', { path: 'beat.json', installedAt: '2026-12-01T10:00:00.000Z' }],
    ['a path with NUL', { path: '/h/a\0b', installedAt: '2026-12-01T10:00:00.000Z' }],
    ['a date that is no instant', { path: '/h/b', installedAt: '2026-02-30T10:00:00.000Z' }],
    ['a date without milliseconds', { path: '/h/b', installedAt: '2026-12-01T10:00:00Z' }],
    ['an extra key', { path: '/h/b', installedAt: '2026-12-01T10:00:00.000Z', x: 1 }],
    ['a string', '/h/b'],
  ])('refuses %s as ledger-malformed (red: a damaged heartbeat is trusted)', (_, heartbeat) => {
    expect(ledgerRefusal(v3(heartbeat))).toBe('ledger-malformed');
  });

  it('refuses a heartbeat on a pending remove (red: a remove could date an install)', () => {
    const heartbeat = { path: '/h/beat.json', installedAt: '2026-12-01T10:00:00.000Z' };
    const pending = { operation: 'remove', intended: null, heartbeat, disable: false };
    expect(ledgerRefusal(v3(null, pending))).toBe('ledger-malformed');
  });
});

describe('readLiveness', () => {
  const record = (path: string) => ({ path, installedAt: AT_INSTALL.toISOString() });

  it('says no-stop while the observer has written nothing (red: an absent file reads as unreadable)', async () => {
    const where = workspace();
    const liveness = await readLiveness(record(join(where.dir, 'none.json')));
    expect(liveness).toMatchObject({ state: 'no-stop', lastStop: null, reason: undefined });
  });

  it('reports the last stop exactly as recorded (red: a field is lost or renamed)', async () => {
    const where = workspace();
    const path = join(where.dir, 'beat.json');
    writeFileSync(path, heartbeatText());
    expect(await readLiveness(record(path))).toEqual({
      ...record(path),
      state: 'seen',
      reason: undefined,
      stops: 3,
      lastStop: lastStop(),
    });
  });

  it('reads a stop simulate-stop fired as simulated, and one without the mark as Cursor’s (red: the mark is refused or dropped, or a file written before it existed is refused)', async () => {
    const where = workspace();
    const path = join(where.dir, 'beat.json');
    writeFileSync(path, heartbeatText(lastStop({ simulated: true })));
    expect((await readLiveness(record(path))).lastStop).toEqual(lastStop({ simulated: true }));
    writeFileSync(path, heartbeatText());
    const cursors = (await readLiveness(record(path))).lastStop;
    expect(cursors).toEqual(lastStop());
    expect(cursors !== null && 'simulated' in cursors).toBe(false);
  });

  // Red: the directory judged by the link itself (not a directory) instead of what it points at.
  it('says no-stop, not directory-missing, for an absent file in a linked directory', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'real'));
    symlinkSync(join(where.dir, 'real'), join(where.dir, 'linked'));
    const liveness = await readLiveness(record(join(where.dir, 'linked', 'beat.json')));
    expect(liveness).toMatchObject({ state: 'no-stop', reason: undefined });
  });

  it('says directory-missing when the heartbeat file is absent and its directory has gone (red: a path no stop can reach reads as "no stop yet")', async () => {
    const where = workspace();
    const liveness = await readLiveness(record(join(where.dir, 'gone', 'beat.json')));
    expect(liveness).toMatchObject({
      state: 'directory-missing',
      reason: 'heartbeat-directory-missing',
      lastStop: null,
    });
  });

  it('says no-stop for a last stop older than the install (red: an earlier install’s stop counts as seen)', async () => {
    const where = workspace();
    const path = join(where.dir, 'beat.json');
    writeFileSync(path, heartbeatText(lastStop({ at: '2026-12-01T09:59:59.999Z' })));
    expect(await readLiveness(record(path))).toMatchObject({ state: 'no-stop', lastStop: null });
  });

  it('refuses a symlink without following it (red: a link to any file is read as the heartbeat)', async () => {
    const where = workspace();
    const target = join(where.dir, 'real.json');
    writeFileSync(target, heartbeatText());
    const path = join(where.dir, 'beat.json');
    symlinkSync(target, path);
    expect(await readLiveness(record(path))).toMatchObject({
      state: 'unreadable',
      reason: 'file-is-link',
      lastStop: null,
    });
  });

  it('refuses a FIFO without blocking (red: status hangs on a FIFO planted at the path)', async () => {
    const where = workspace();
    const path = join(where.dir, 'beat.json');
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    expect(await readLiveness(record(path))).toMatchObject({
      state: 'unreadable',
      reason: 'file-not-regular',
    });
  });

  it('refuses a file over 64 KiB (red: the read is unbounded)', async () => {
    const where = workspace();
    const path = join(where.dir, 'beat.json');
    const padded = heartbeatText(lastStop(), {});
    writeFileSync(path, padded + ' '.repeat(MAX_HEARTBEAT_BYTES + 1 - padded.length));
    expect(await readLiveness(record(path))).toMatchObject({
      state: 'unreadable',
      reason: 'heartbeat-too-large',
    });
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d])],
    ['version 2', heartbeatText(lastStop(), { version: 2 })],
    ['stops 0', heartbeatText(lastStop(), { stops: 0 })],
    ['stops a string', heartbeatText(lastStop(), { stops: '3' })],
    ['an extra root key', heartbeatText(lastStop(), { user: 'x' })],
    ['lastStop null', heartbeatText(null)],
    ['an extra lastStop key', heartbeatText(lastStop({ prompt: 'x' }))],
    ['a missing lastStop key', heartbeatText({ at: '2026-12-01T10:05:00.000Z' })],
    ['at not an instant', heartbeatText(lastStop({ at: 'yesterday' }))],
    ['cursorVersion a number', heartbeatText(lastStop({ cursorVersion: 3 }))],
    ['an unknown verdict', heartbeatText(lastStop({ verdict: 'fine' }))],
    ['an unknown status', heartbeatText(lastStop({ status: 'done' }))],
    ['a negative loopCount', heartbeatText(lastStop({ loopCount: -1 }))],
    ['a fractional loopCount', heartbeatText(lastStop({ loopCount: 0.5 }))],
    ['simulated false', heartbeatText(lastStop({ simulated: false }))],
    ['simulated a string', heartbeatText(lastStop({ simulated: 'yes' }))],
    ['simulated and an extra key', heartbeatText(lastStop({ simulated: true, prompt: 'x' }))],
  ])(
    'calls a heartbeat with %s unreadable, heartbeat-malformed (red: a bad file is trusted)',
    async (_, bytes) => {
      const where = workspace();
      const path = join(where.dir, 'beat.json');
      writeFileSync(path, bytes);
      expect(await readLiveness(record(path))).toMatchObject({
        state: 'unreadable',
        reason: 'heartbeat-malformed',
        lastStop: null,
      });
    },
  );
});

describe('status and the last stop', () => {
  it('has no liveness where the ledger keeps no heartbeat (red: the report changes for hosts without one)', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    const s = await status(where);
    expect('liveness' in s).toBe(false);
    expect(s.nextStep.code).toBe('none');
  });

  it('says no-stop, and none, before the first stop (red: a fresh install reads as broken)', async () => {
    const where = await withHeartbeat();
    const s = await status(where);
    expect(s.liveness).toMatchObject({ state: 'no-stop', lastStop: null });
    expect(s.nextStep.code).toBe('none');
  });

  it('reports a stop from the qualified version with next step none (red: every stop asks for requalification)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, heartbeatText());
    const s = await status(where);
    expect(s.liveness?.lastStop).toEqual(lastStop());
    expect(s.nextStep.code).toBe('none');
  });

  it.each([
    ['another cursorVersion', lastStop({ cursorVersion: '3.23.0', verdict: null })],
    ['the verdict version-differs', lastStop({ cursorVersion: null, verdict: 'version-differs' })],
  ])(
    'names requalify after a stop with %s, with the family and a state directory beside the ledger (red: a Cursor update goes unnoticed)',
    async (_, last) => {
      const where = await withHeartbeat();
      writeFileSync(where.heartbeat, heartbeatText(last));
      const s = await status(where);
      expect(s.nextStep).toMatchObject({
        code: 'requalify',
        command: 'qualify start',
        with: null,
        qualify: {
          family: 'posix-single-quote',
          stateDir: join(where.dir, QUALIFY_STATE_DIRECTORY),
        },
      });
    },
  );

  it('never names requalify from a simulated stop, whatever its version (red: simulate-stop --cursor-version reads as a Cursor update)', async () => {
    const where = await withHeartbeat();
    const simulated = { cursorVersion: '3.23.0', verdict: 'version-differs', simulated: true };
    writeFileSync(where.heartbeat, heartbeatText(lastStop(simulated)));
    const s = await status(where);
    expect(s.liveness).toMatchObject({ state: 'seen', lastStop: { simulated: true } });
    expect(s.nextStep.code).toBe('none');
  });

  it('names fix-heartbeat-path once the recorded heartbeat’s directory is gone (red: status only says no stop was seen)', async () => {
    const where = await withHeartbeat();
    rmSync(dirname(where.heartbeat), { recursive: true });
    const s = await status(where);
    expect(s.liveness).toMatchObject({ state: 'directory-missing' });
    expect(s.nextStep).toMatchObject({ code: 'fix-heartbeat-path', command: null });
    expect(s.nextStep.sentence).toContain('create the directory');
  });

  it('puts a state the user must fix first ahead of requalify (red: requalify hides remainder drift)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, heartbeatText(lastStop({ cursorVersion: '3.23.0' })));
    const text = readFileSync(where.hooks, 'utf8');
    writeFileSync(where.hooks, text.replace('"version": 1', '"version": 1, "x": 1'));
    expect((await status(where)).nextStep.code).toBe('refresh');
  });

  it('does not ask for requalification from an unreadable heartbeat (red: a planted file steers the next step)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, heartbeatText(lastStop({ cursorVersion: 9 })));
    const s = await status(where);
    expect(s.liveness).toMatchObject({ state: 'unreadable', reason: 'heartbeat-malformed' });
    expect(s.nextStep.code).toBe('none');
  });
});
