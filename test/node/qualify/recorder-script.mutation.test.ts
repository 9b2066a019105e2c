// The POSIX recorder script: its exact text, what it writes when /bin/sh runs it (read back by
// readRecordings, the other half of the protocol), and that it answers {} and exits 0 even when
// it cannot record.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recorderScript } from '../../../src/node/qualify/recorder-script.js';
import { readRecordings } from '../../../src/node/qualify/recording.js';
import { tempDir } from '../support.js';

const EXPECTED = `#!/bin/sh
# cursorhooks qualification recorder: writes down how Cursor ran it, answers {}, exits 0.
recordings='/state/probe it'"'"'s/recordings'
tmp="$recordings/.tmp-$$"
mkdir "$tmp" 2>/dev/null || { printf '{}\\n'; exit 0; }
printf '%s\\0' "$0" "$@" > "$tmp/argv"
pwd -P > "$tmp/cwd"
head -c 1048576 > "$tmp/stdin"
if [ "\${CURSOR_VERSION+set}" = set ]; then printf '%s' "$CURSOR_VERSION" > "$tmp/cursor-version"; fi
mv "$tmp" "$recordings/rec-$$-$(date +%s)" 2>/dev/null || rm -rf "$tmp"
printf '{}\\n'
exit 0
`;

/** The script written into `dir`, run by /bin/sh with `args`, stdin and env as given. */
function run(
  dir: string,
  recordings: string,
  options: { args?: string[]; input?: string; env?: Record<string, string>; cwd?: string } = {},
) {
  const script = join(dir, "record it's");
  writeFileSync(script, recorderScript(recordings));
  chmodSync(script, 0o700);
  const result = spawnSync('/bin/sh', [script, ...(options.args ?? [])], {
    cwd: options.cwd ?? dir,
    input: options.input ?? '',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...options.env },
    encoding: 'utf8',
  });
  return { script, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterEach(() => {
  vi.doUnmock('../../../src/shell/families.js');
  vi.resetModules();
});

describe('recorderScript', () => {
  it('is exactly the reviewed script, the recordings path single-quoted (red: any line of the recorder changes)', () => {
    expect(recorderScript("/state/probe it's/recordings")).toBe(EXPECTED);
  });

  it('run by /bin/sh, writes argv with its own path first, the physical cwd, stdin and CURSOR_VERSION, which readRecordings reads back (red: the two halves of the protocol disagree)', async () => {
    const dir = tempDir();
    const recordings = join(dir, 'recordings');
    mkdirSync(recordings);
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const ran = run(dir, recordings, {
      args: ['cursor-event', '', ' two  spaces ', "it's", '-n', '%s'],
      input: '{"hook_event_name":"stop"}',
      env: { CURSOR_VERSION: '' },
      cwd: join(dir, 'link'),
    });
    expect(ran).toMatchObject({ status: 0, stdout: '{}\n', stderr: '' });
    const [recording, ...more] = await readRecordings(recordings);
    expect(more).toEqual([]);
    expect(recording?.name).toMatch(/^rec-\d+-\d+$/);
    expect(recording?.argv).toEqual([
      ran.script,
      'cursor-event',
      '',
      ' two  spaces ',
      "it's",
      '-n',
      '%s',
    ]);
    expect(recording?.cwd).toBe(join(dir, 'real'));
    expect(new TextDecoder().decode(recording?.stdin)).toBe('{"hook_event_name":"stop"}');
    // Set but empty is not unset.
    expect(recording?.cursorVersionEnv).toBe('');
    expect(readdirSync(recordings)).toEqual([recording?.name]);
  });

  it('leaves cursor-version out when CURSOR_VERSION is unset (red: unset reads as an empty version)', async () => {
    const dir = tempDir();
    const recordings = join(dir, 'recordings');
    mkdirSync(recordings);
    expect(run(dir, recordings).status).toBe(0);
    expect((await readRecordings(recordings))[0]?.cursorVersionEnv).toBeNull();
  });

  it('answers {} and exits 0 when it cannot record, leaving nothing (red: a failed probe breaks the agent turn)', () => {
    const dir = tempDir();
    const ran = run(dir, join(dir, 'absent', 'recordings'));
    expect(ran).toMatchObject({ status: 0, stdout: '{}\n', stderr: '' });
    expect(readdirSync(dir)).toEqual(["record it's"]);
  });

  it('throws when the posix-single-quote family is not registered (red: a script with an unquoted path)', async () => {
    vi.resetModules();
    vi.doMock('../../../src/shell/families.js', () => ({ grammarFamily: () => undefined }));
    const fresh = await import('../../../src/node/qualify/recorder-script.js');
    expect(() => fresh.recorderScript('/r')).toThrow(
      'the posix-single-quote family is not registered',
    );
  });
});
