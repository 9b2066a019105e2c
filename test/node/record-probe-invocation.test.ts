// recordProbeInvocation: the recorder protocol in one call, for a host executable that serves as
// the probe's recorder (the Windows family needs one; POSIX may use one). It records only for a
// probe's binding, finds the binding in a mangled argv, and bounds what it keeps.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualifiedContract } from '../../src/index.js';
import {
  finishQualification,
  recordProbeInvocation,
  startQualification,
} from '../../src/node/index.js';
import { bindingBytes, readRecordings } from '../../src/node/qualify/recording.js';
import { buildChild } from './child/spawn.js';
import { fire, probeHome, USER_HOOKS } from './qualify-support.js';
import { allChecksPassed, tempDir } from './support.js';

/** A probe binding in a fresh directory, and its recordings directory. */
function binding(): { file: string; recordings: string } {
  const dir = tempDir();
  const recordings = join(dir, 'recordings');
  mkdirSync(recordings);
  const file = join(dir, "binding it's.json");
  writeFileSync(file, bindingBytes(recordings));
  return { file, recordings };
}

describe('recordProbeInvocation', () => {
  it('records argv, cwd, stdin and CURSOR_VERSION in the layout finish reads (red: a host recorder and finish disagree)', async () => {
    const { file, recordings } = binding();
    const argv = ['/opt/host/recorder', 'cursor-event', 'stop', '--binding', file, '', "it's"];
    const payload = '{"hook_event_name":"stop","cursor_version":"3.30.0"}';
    const done = await recordProbeInvocation({
      argv,
      stdin: payload,
      cwd: '/home/u/.cursor',
      env: { CURSOR_VERSION: '3.30.0' },
    });
    expect(done).toEqual({ recorded: true });
    const [recording, ...more] = await readRecordings(recordings);
    expect(more).toEqual([]);
    expect(recording).toMatchObject({ argv, cwd: '/home/u/.cursor', cursorVersionEnv: '3.30.0' });
    expect(new TextDecoder().decode(recording?.stdin)).toBe(payload);
    // Renamed into place: no staging directory is left.
    expect(readdirSync(recordings).every((name) => name.startsWith('rec-'))).toBe(true);
  });

  it('leaves CURSOR_VERSION out when it is unset and keeps at most 1 MiB of stdin (red: an unset version reads as empty, or stdin is unbounded)', async () => {
    const { file, recordings } = binding();
    await recordProbeInvocation({
      argv: ['/r', '--binding', file],
      stdin: new Uint8Array(3 * 1024 * 1024),
      env: {},
    });
    const [recording] = await readRecordings(recordings);
    expect(recording?.cursorVersionEnv).toBeNull();
    expect(recording?.stdin.length).toBe(1024 * 1024);
  });

  it('finds the binding in an argv whose --binding was lost, so finish can show the mangled argv (red: a mangled launch looks like no launch)', async () => {
    const { file, recordings } = binding();
    expect(
      (await recordProbeInvocation({ argv: ['/r', 'cursor-event', file], stdin: '', env: {} }))
        .recorded,
    ).toBe(true);
    expect((await readRecordings(recordings))[0]?.argv).toEqual(['/r', 'cursor-event', file]);
  });

  it("records nothing for a binding that is not a probe's (red: a real stop is taken for a probe)", async () => {
    const dir = tempDir();
    const real = join(dir, 'stop.json');
    writeFileSync(real, '{"recordings": "/tmp"}');
    const outcome = await recordProbeInvocation({
      argv: ['/r', 'cursor-event', 'stop', '--binding', real],
      stdin: '',
      env: {},
    });
    expect(outcome).toEqual({ recorded: false });
    expect(readdirSync(dir)).toEqual(['stop.json']);
  });
});

describe('a host executable as the POSIX recorder (--recorder)', () => {
  let child: Awaited<ReturnType<typeof buildChild>>;
  beforeAll(async () => {
    child = await buildChild('recorder');
  });
  afterAll(() => child.dispose());

  it('qualifies end to end through recordProbeInvocation (red: the documented protocol does not satisfy finish)', async () => {
    const where = probeHome();
    const recorder = join(where.home, 'host bin', "acme's notify");
    mkdirSync(join(where.home, 'host bin'));
    // The wrapper passes its own path on, as a native executable sees argv[0].
    writeFileSync(recorder, `#!/bin/sh\nexec '${process.execPath}' '${child.script}' "$0" "$@"\n`);
    chmodSync(recorder, 0o700);
    const started = await startQualification({
      stateDir: where.stateDir,
      hooksFile: where.hooksFile,
      family: 'posix-single-quote',
      recorder,
      checkHostPaths: allChecksPassed,
    });
    expect(started.error).toBeUndefined();
    expect(started.probe?.argv[0]).toBe(recorder);
    const fired = await fire(where, { cursorVersion: '3.31.0' });
    expect(fired[1]?.stdout).toBe('{}\n');
    const finished = await finishQualification({ stateDir: where.stateDir, out: where.out });
    expect(finished.error).toBeUndefined();
    expect(qualifiedContract(JSON.parse(readFileSync(where.out, 'utf8'))).evidence.version).toBe(
      '3.31.0',
    );
    expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
    // The host's own recorder is the host's: cancel and finish never delete it.
    expect(existsSync(recorder)).toBe(true);
  });
});
