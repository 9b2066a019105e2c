// The recorder protocol's edges: the binding file's bytes and what counts as a probe binding,
// which argv token is tried first, the exact layout recordProbeInvocation writes (names, modes,
// NUL-terminated argv), its clean-up on failure, and every refusal of readRecordings.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bindingBytes,
  MAX_STDIN_BYTES,
  readRecordings,
  recordProbeInvocation,
} from '../../../src/node/qualify/recording.js';
import { failing, hostFailure, tempDir } from '../support.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A probe binding file naming a fresh recordings directory. */
function binding(dir = tempDir(), name = 'binding.json'): { file: string; recordings: string } {
  const recordings = join(dir, `${name}-recordings`);
  mkdirSync(recordings);
  const file = join(dir, name);
  writeFileSync(file, bindingBytes(recordings));
  return { file, recordings };
}

/** A finished recording directory with the given files (string or bytes). */
function recordingDir(
  recordings: string,
  name: string,
  files: Record<string, string | Uint8Array>,
) {
  const dir = join(recordings, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dir, file), bytes);
  return dir;
}

const COMPLETE = { argv: '/r\0a\0', cwd: '/c\n', stdin: '{}' };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('bindingBytes', () => {
  it('is one line of JSON with the marker 1 and the recordings path (red: a binding the recorder does not recognise)', () => {
    expect(decode(bindingBytes("/s/it's"))).toBe(
      '{"cursorhooksProbe":1,"recordings":"/s/it\'s"}\n',
    );
  });
});

describe('recordProbeInvocation', () => {
  it('writes rec-<pid>-<ms>-<8 hex>, mode 0700, argv each token NUL-terminated, cwd and stdin as given (red: another layout than finish reads)', async () => {
    const { file, recordings } = binding();
    const before = Date.now();
    await recordProbeInvocation({
      argv: ['/r', '--binding', file, ''],
      stdin: new Uint8Array([0xff, 0, 1]),
      cwd: '/w',
      env: { CURSOR_VERSION: '3.1' },
    });
    const [name, ...more] = readdirSync(recordings);
    expect(more).toEqual([]);
    const match = /^rec-(\d+)-(\d+)-([0-9a-f]{8})$/.exec(name ?? '');
    expect(match?.[1]).toBe(String(process.pid));
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(before);
    expect(Number(match?.[2])).toBeLessThanOrEqual(Date.now());
    const dir = join(recordings, name ?? '');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'argv'), 'latin1')).toBe(`/r\0--binding\0${file}\0\0`);
    expect(readFileSync(join(dir, 'cwd'), 'utf8')).toBe('/w');
    expect([...readFileSync(join(dir, 'stdin'))]).toEqual([0xff, 0, 1]);
    expect(readFileSync(join(dir, 'cursor-version'), 'utf8')).toBe('3.1');
    expect(readdirSync(dir).sort()).toEqual(['argv', 'cursor-version', 'cwd', 'stdin']);
  });

  it('two invocations make two recordings (red: a second one collides with the first)', async () => {
    const { file, recordings } = binding();
    for (let i = 0; i < 2; i++) {
      await recordProbeInvocation({ argv: ['/r', file], stdin: '', env: {} });
    }
    expect(readdirSync(recordings)).toHaveLength(2);
  });

  it('defaults the cwd to process.cwd() and the environment to process.env (red: a host that passes neither records nothing useful)', async () => {
    const { file, recordings } = binding();
    vi.stubEnv('CURSOR_VERSION', '9.9.9');
    await recordProbeInvocation({ argv: ['/r', file], stdin: 'x' });
    const [recording] = await readRecordings(recordings);
    expect(recording?.cwd).toBe(process.cwd());
    expect(recording?.cursorVersionEnv).toBe('9.9.9');
    expect(decode(recording?.stdin ?? new Uint8Array())).toBe('x');
  });

  it('a string stdin is stored as its UTF-8 bytes (red: the string is not encoded)', async () => {
    const { file, recordings } = binding();
    await recordProbeInvocation({ argv: ['/r', file], stdin: 'é中', env: {} });
    const [recording] = await readRecordings(recordings);
    expect([...(recording?.stdin ?? [])]).toEqual([...new TextEncoder().encode('é中')]);
  });

  it('keeps exactly MAX_STDIN_BYTES of a longer stdin (red: one byte more or less)', async () => {
    const { file, recordings } = binding();
    const stdin = new Uint8Array(MAX_STDIN_BYTES + 5).fill(7);
    await recordProbeInvocation({ argv: ['/r', file], stdin, env: {} });
    const [recording] = await readRecordings(recordings);
    expect(recording?.stdin.length).toBe(1024 * 1024);
  });

  it('tries the token after --binding before every other token (red: an earlier binding-like token wins)', async () => {
    const dir = tempDir();
    const first = binding(dir, 'first.json');
    const named = binding(dir, 'named.json');
    await recordProbeInvocation({
      argv: ['/r', first.file, '--binding', named.file],
      stdin: '',
      env: {},
    });
    expect(readdirSync(named.recordings)).toHaveLength(1);
    expect(readdirSync(first.recordings)).toEqual([]);
  });

  it('keeps the first binding found even when later tokens are not bindings (red: the search runs on and forgets it)', async () => {
    const { file, recordings } = binding();
    const outcome = await recordProbeInvocation({
      argv: [file, '/not/a/file', 'plain'],
      stdin: '',
      env: {},
    });
    expect(outcome).toEqual({ recorded: true });
    expect(readdirSync(recordings)).toHaveLength(1);
  });

  it('--binding as the last token, with no binding anywhere: recorded false (red: a missing value crashes the host)', async () => {
    expect(await recordProbeInvocation({ argv: ['/r', '--binding'], stdin: '', env: {} })).toEqual({
      recorded: false,
    });
  });

  it.each([
    ['marker 2', { cursorhooksProbe: 2, recordings: '/x' }],
    ['marker "1"', { cursorhooksProbe: '1', recordings: '/x' }],
    ['no marker', { recordings: '/x' }],
    ['recordings not a string', { cursorhooksProbe: 1, recordings: 7 }],
    ['an array', [1]],
  ])(
    'a JSON file with %s is not a probe binding (red: a real stop taken for a probe)',
    async (_, value) => {
      const dir = tempDir();
      const file = join(dir, 'b.json');
      writeFileSync(file, JSON.stringify(value));
      expect(
        await recordProbeInvocation({ argv: ['/r', '--binding', file], stdin: '', env: {} }),
      ).toEqual({
        recorded: false,
      });
    },
  );

  it('an argv token naming a FIFO or /dev/zero is no binding, answered at once (red: the recorder blocks on the FIFO or reads the device without end)', async () => {
    const fifo = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(
      await recordProbeInvocation({ argv: ['/r', fifo, '/dev/zero'], stdin: '', env: {} }),
    ).toEqual({ recorded: false });
  });

  it('a failed write removes the staging directory and passes the failure on (red: a .tmp- directory is left, or the clean-up hides the failure)', async () => {
    const { file, recordings } = binding();
    const err = await recordProbeInvocation({
      argv: ['/r', file],
      stdin: 'payload',
      // Not a string: writing cursor-version fails after argv, cwd and stdin are in the staging directory.
      env: { CURSOR_VERSION: 42 as unknown as string },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as NodeJS.ErrnoException).code).toBe('ERR_INVALID_ARG_TYPE');
    expect(readdirSync(recordings)).toEqual([]);
  });
});

describe('readRecordings', () => {
  it('an absent directory holds none (red: a probe that never fired is an error)', async () => {
    expect(await readRecordings(join(tempDir(), 'absent'))).toEqual([]);
  });

  it('a recordings path that is a file: a HostIOError about it, role probe (red: treated as empty, or no path named)', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const err = await hostFailure(readRecordings(file));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'ENOTDIR', path: file, role: 'probe' });
  });

  it('reads only rec- entries, in name order, cwd losing one trailing LF only (red: staging read, order lost, or the cwd changed)', async () => {
    const recordings = tempDir();
    // Made out of order (Node's readdir sorts on POSIX, libuv's scandir; the code sorts itself).
    recordingDir(recordings, 'rec-c', COMPLETE);
    recordingDir(recordings, 'rec-b', { argv: '/b\0\0x\0', cwd: '/b\n\n', stdin: 'B' });
    recordingDir(recordings, 'rec-e', COMPLETE);
    recordingDir(recordings, 'rec-a', { ...COMPLETE, cwd: '/a\nz\n', 'cursor-version': '3.2' });
    recordingDir(recordings, 'rec-d', COMPLETE);
    recordingDir(recordings, '.tmp-1', {});
    recordingDir(recordings, 'other', {});
    const read = await readRecordings(recordings);
    expect(read.map((r) => r.name)).toEqual(['rec-a', 'rec-b', 'rec-c', 'rec-d', 'rec-e']);
    expect(read.slice(0, 2).map((r) => ({ ...r, stdin: decode(r.stdin) }))).toEqual([
      { name: 'rec-a', argv: ['/r', 'a'], cwd: '/a\nz', stdin: '{}', cursorVersionEnv: '3.2' },
      { name: 'rec-b', argv: ['/b', '', 'x'], cwd: '/b\n', stdin: 'B', cursorVersionEnv: null },
    ]);
    expect(read[0]?.stdin).toBeInstanceOf(Uint8Array);
  });

  it.each(['argv', 'cwd', 'stdin'])(
    'a recording without %s is malformed, naming it (red: a half-written recording is read)',
    async (missing) => {
      const recordings = tempDir();
      const files: Record<string, string> = { ...COMPLETE };
      delete files[missing];
      const dir = recordingDir(recordings, 'rec-1', files);
      const err = await hostFailure(readRecordings(recordings));
      expect(err).toMatchObject({ reason: 'probe-recording-malformed', path: dir, role: 'probe' });
    },
  );

  it.each([
    ['argv without its final NUL', { argv: '/r\0a' }],
    ['argv that is not UTF-8', { argv: new Uint8Array([0xff, 0]) }],
    ['cwd that is not UTF-8', { cwd: new Uint8Array([0xc3]) }],
    ['cursor-version that is not UTF-8', { 'cursor-version': new Uint8Array([0xfe]) }],
  ])('%s is malformed (red: mangled bytes are read as text)', async (_, files) => {
    const recordings = tempDir();
    const dir = recordingDir(recordings, 'rec-1', { ...COMPLETE, ...files });
    const err = await hostFailure(readRecordings(recordings));
    expect(err).toMatchObject({ reason: 'probe-recording-malformed', path: dir, role: 'probe' });
  });

  it('a field of 1 MiB + 1 bytes is read, one of 1 MiB + 2 is malformed (red: the bound moved)', async () => {
    const recordings = tempDir();
    const dir = recordingDir(recordings, 'rec-1', COMPLETE);
    writeFileSync(join(dir, 'stdin'), '');
    truncateSync(join(dir, 'stdin'), 1024 * 1024 + 1);
    const [recording] = await readRecordings(recordings);
    expect(recording?.stdin.length).toBe(1024 * 1024 + 1);
    truncateSync(join(dir, 'stdin'), 1024 * 1024 + 2);
    const err = await hostFailure(readRecordings(recordings));
    expect(err).toMatchObject({ reason: 'probe-recording-malformed', path: dir, role: 'probe' });
  });

  it('a field that cannot be read is an I/O failure naming that file (red: taken as absent, or as malformed)', async () => {
    const recordings = tempDir();
    const dir = recordingDir(recordings, 'rec-1', { argv: '/r\0', stdin: '', cwd: '/' });
    const fs = failing('open', 'EIO', (path) => path === join(dir, 'cwd'));
    const err = await hostFailure(readRecordings(recordings, fs));
    expect(err).toMatchObject({
      reason: 'io-failure',
      code: 'EIO',
      path: join(dir, 'cwd'),
      role: 'probe',
    });
  });

  it.each([
    ['a link to a file outside', (at: string) => symlinkSync('/etc/hostname', at)],
    ['a FIFO', (at: string) => execFileSync('mkfifo', [at])],
    ['a directory', (at: string) => mkdirSync(at)],
  ])(
    'a field that is %s is malformed, neither followed nor waited on (red: a planted name is read through, or blocks finish)',
    async (_, plant) => {
      const recordings = tempDir();
      const dir = recordingDir(recordings, 'rec-1', { argv: '/r\0', stdin: '' });
      plant(join(dir, 'cwd'));
      expect(await hostFailure(readRecordings(recordings))).toMatchObject({
        reason: 'probe-recording-malformed',
        path: dir,
      });
    },
  );

  it('a recording that is a link to a directory elsewhere is malformed, not followed (red: a planted link is read as a recording)', async () => {
    const recordings = tempDir();
    const elsewhere = recordingDir(tempDir(), 'rec-x', COMPLETE);
    symlinkSync(elsewhere, join(recordings, 'rec-1'));
    expect(await hostFailure(readRecordings(recordings))).toMatchObject({
      reason: 'probe-recording-malformed',
      path: join(recordings, 'rec-1'),
    });
  });

  it('256 recordings are read one by one, 257 are refused as a whole (red: the bound moved)', async () => {
    const recordings = tempDir();
    // Empty recordings: 256 fail on the first one read, 257 before any is read.
    for (let i = 0; i < 256; i++) mkdirSync(join(recordings, `rec-${String(i).padStart(3, '0')}`));
    const first = await hostFailure(readRecordings(recordings));
    expect(first.path).toBe(join(recordings, 'rec-000'));
    mkdirSync(join(recordings, 'rec-256'));
    const all = await hostFailure(readRecordings(recordings));
    expect(all).toMatchObject({
      reason: 'probe-recording-malformed',
      path: recordings,
      role: 'probe',
    });
  });
});

describe('module constants, read from a fresh copy of the module', () => {
  it('the binding key, the rec- prefix and the strict UTF-8 decoder (red: a binding or recording under another name, or mangled bytes read as text)', async () => {
    vi.resetModules();
    const fresh = await import('../../../src/node/qualify/recording.js');
    expect(decode(fresh.bindingBytes('/r'))).toBe('{"cursorhooksProbe":1,"recordings":"/r"}\n');
    const { file, recordings } = binding();
    await fresh.recordProbeInvocation({ argv: ['/r', file], stdin: '', env: {} });
    expect(readdirSync(recordings)).toEqual([expect.stringMatching(/^rec-\d/)]);
    const other = tempDir();
    recordingDir(other, 'rec-1', { ...COMPLETE, cwd: new Uint8Array([0xc3]) });
    recordingDir(other, 'zz-1', {});
    // The fresh copy has its own HostIOError class: compare the fields only.
    await expect(fresh.readRecordings(other)).rejects.toMatchObject({
      reason: 'probe-recording-malformed',
      path: join(other, 'rec-1'),
    });
  });
});
