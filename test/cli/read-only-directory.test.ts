// A hook file's directory the user cannot write (mode 0555, as a read-only ~/.cursor): the
// built CLI refuses naming that directory and the fix, for a hook file absent or present.
// Root ignores mode bits, so as root the CLI runs as nobody (setpriv), as a real user would.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../demo/cli-process.js';
import { tempDir } from '../node/support.js';
import { SHELL } from './support.js';

const NOBODY = 65534;
const root = process.getuid?.() === 0;

/** A home owned by whoever runs the CLI, its `.cursor` made read-only after `hooks` is put there. */
function readOnlyHome(hooks: string | undefined) {
  const dir = tempDir();
  const cursor = join(dir, '.cursor');
  const bin = join(dir, 'bin');
  mkdirSync(cursor);
  mkdirSync(bin);
  writeFileSync(join(bin, 'host'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(bin, 'stop.json'), '{}\n');
  if (hooks !== undefined) writeFileSync(join(cursor, 'hooks.json'), hooks);
  if (root)
    for (const path of [dir, cursor, bin, join(bin, 'host'), join(bin, 'stop.json')]) {
      chownSync(path, NOBODY, NOBODY);
    }
  if (root && hooks !== undefined) chownSync(join(cursor, 'hooks.json'), NOBODY, NOBODY);
  chmodSync(dir, 0o755);
  chmodSync(cursor, 0o555);
  return { dir, cursor, hooks: join(cursor, 'hooks.json'), bin };
}

type ReadOnlyHome = ReturnType<typeof readOnlyHome>;

const specOf = (where: ReadOnlyHome) => [
  ...['--executable', join(where.bin, 'host'), '--selector', join(where.bin, 'stop.json')],
  ...['--shell', SHELL],
];

function install(where: ReadOnlyHome, json: boolean) {
  return asUser(where, ['install', ...specOf(where), ...(json ? ['--json'] : [])]);
}

/** The built CLI on `where`'s files, run as the home's user (nobody, when the test is root). */
function asUser(where: ReadOnlyHome, command: readonly string[]) {
  const args = [
    BUILT_CLI,
    ...command,
    ...['--hooks-file', where.hooks, '--ledger', join(where.dir, 'ledger.json')],
  ];
  const asUser = root
    ? [
        'setpriv',
        ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, ...args],
      ]
    : [process.execPath, args];
  const [program, argv] = asUser as [string, string[]];
  return spawnSync(program, argv, { encoding: 'utf8' });
}

describe('a read-only hook file directory', () => {
  // Red before: permission-denied about the hook file ("the file system refused access"), naming
  // neither the directory nor what to do.
  it.each([
    ['absent', undefined],
    ['present', '{"version":1,"hooks":{}}\n'],
  ])(
    'hook file %s: directory-not-writable naming the directory and the fix, exit 74, nothing written',
    (_, before) => {
      const where = readOnlyHome(before);
      const text = install(where, false);
      expect(text.status, text.stderr).toBe(74);
      expect(text.stderr).toBe(
        `cursorhooks: the directory that holds the file does not let this user create files in it: make the directory writable (chmod u+w), then run the command again (directory: ${where.cursor}) [directory-not-writable]\n`,
      );
      const json = install(where, true);
      expect(JSON.parse(json.stderr).error).toMatchObject({
        kind: 'io',
        reason: 'directory-not-writable',
        role: 'directory',
        path: where.cursor,
      });
      const after = before === undefined ? undefined : readFileSync(where.hooks, 'utf8');
      expect(after).toBe(before);
    },
  );
});

describe('status before a write into a read-only hook file directory', () => {
  // Red before: status said install, and install refused directory-not-writable, the step
  // named again after every refusal: advice that led back into the same refusal.
  it.each([
    ['absent', undefined],
    ['present', '{"version":1,"hooks":{}}\n'],
  ])(
    'hook file %s: status and the refused install name make-directory-writable and the directory, not install',
    (_, before) => {
      const where = readOnlyHome(before);
      const status = asUser(where, ['status', '--json']);
      expect(status.status, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).nextStep).toMatchObject({
        code: 'make-directory-writable',
        command: null,
        directory: where.cursor,
      });
      const text = asUser(where, ['status']);
      expect(text.stdout).toContain(
        `directory not writable: ${where.cursor}\nnext step: make-directory-writable: `,
      );
      const refused = install(where, true);
      expect(JSON.parse(refused.stdout).nextStep).toMatchObject({
        code: 'make-directory-writable',
        directory: where.cursor,
      });
    },
  );

  // Red: the check blamed a writable directory (mode bits read for the wrong class of user).
  it('a writable directory keeps the step the state needs (install)', () => {
    const where = readOnlyHome(undefined);
    chmodSync(where.cursor, 0o755);
    const status = asUser(where, ['status', '--json']);
    expect(JSON.parse(status.stdout).nextStep.code).toBe('install');
  });
});

describe('a heartbeat directory the user cannot write', () => {
  // Red before: install recorded it, the observer could never write a stop there, and status
  // said "no stop seen" for ever.
  it('install --heartbeat refuses heartbeat-directory-not-writable with step fix-heartbeat-path, exit 1, writing nothing', () => {
    const where = readOnlyHome(undefined);
    chmodSync(where.cursor, 0o755);
    const state = join(where.dir, 'state');
    mkdirSync(state);
    // As root the directory stays root's, which nobody may not write; else read-only.
    if (!root) chmodSync(state, 0o555);
    const heartbeat = join(state, 'beat.json');
    const refused = asUser(where, [
      'install',
      ...specOf(where),
      '--heartbeat',
      heartbeat,
      '--json',
    ]);
    expect(refused.status, refused.stderr).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      reason: 'heartbeat-directory-not-writable',
      role: 'heartbeat',
      path: heartbeat,
    });
    expect(JSON.parse(refused.stdout).nextStep).toMatchObject({ code: 'fix-heartbeat-path' });
    expect(() => readFileSync(where.hooks)).toThrow();
    expect(() => readFileSync(join(where.dir, 'ledger.json'))).toThrow();
  });
});
