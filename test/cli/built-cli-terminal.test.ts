// A forged lock record beside the hook file, its host name and date holding escape sequences:
// what the built CLI prints about it must reach a terminal with no control character raw.
import { execFileSync } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { selfIdentity } from '../../src/node/lock/process-identity.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { spawnCli } from '../demo/cli-process.js';
import { files, home, specArgs, writeHooks } from './file-support.js';

const ROOT = new URL('../../', import.meta.url);

// Always bundle: a stale dist would test yesterday's CLI.
beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

// An OSC that retitles the terminal, a C1 CSI that clears it, a bidi override.
const HOSTNAME = '\u001b]0;title\u0007';
const ACQUIRED_AT = '2026-12-07T00:00:00.000Z\u009b2J\u202e';
// What a terminal must never receive: a control character but tab and LF, or a bidi control.
const RAW = /(?![\t\n])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** A home whose hook file is locked by a forged record naming this (live) test process. */
function forgedLock() {
  const where = home();
  writeHooks(where);
  const record = {
    pid: process.pid,
    hostname: HOSTNAME,
    acquiredAt: ACQUIRED_AT,
    nonce: 'forged',
    // Our own boot, pid namespace and start time: the holder is judged alive, never broken.
    ...selfIdentity(),
  };
  writeFileSync(lockPathOf(realpathSync(where.hooks)), JSON.stringify(record));
  return where;
}

interface Holder {
  readonly hostname: string;
  readonly acquiredAt: string;
}

function expectHolder(holder: Holder | undefined): void {
  expect(holder).toMatchObject({ hostname: HOSTNAME, acquiredAt: ACQUIRED_AT });
}

describe('the built CLI and a forged lock holding escape sequences', () => {
  it('status prints the holder escaped, as text and as JSON that reads back to the same strings (red: the host name retitles the terminal, the date clears it)', async () => {
    const where = forgedLock();
    const text = await spawnCli(['status', ...files(where)], '');
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('\\u001b]0;title\\u0007');
    expect(text.stdout).toContain('\\u009b2J\\u202e');
    expect(text.stdout).not.toMatch(RAW);
    expect(text.stderr).toBe('');

    const json = await spawnCli(['status', ...files(where), '--json'], '');
    expect(json.exitCode, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(RAW);
    const { locks } = JSON.parse(json.stdout) as { locks: { holder: Holder | null }[] };
    expectHolder(locks.find((lock) => lock.holder !== null)?.holder ?? undefined);
  });

  // The holder is alive, so each install waits out the CLI's 10 s lock timeout.
  it.skipIf(selfIdentity().bootId === undefined)(
    'install names the live holder escaped, on stdout and stderr, as text and as JSON (red: the lock-timeout report writes the escapes raw)',
    async () => {
      const where = forgedLock();
      const args = ['install', ...files(where), ...specArgs(where.spec)];
      const [text, json] = await Promise.all([
        spawnCli(args, ''),
        spawnCli([...args, '--json'], ''),
      ]);
      for (const outcome of [text, json]) {
        expect(outcome.exitCode, outcome.stderr).not.toBe(0);
        expect(outcome.stdout).not.toMatch(RAW);
        expect(outcome.stderr).not.toMatch(RAW);
      }
      expect(text.stderr).toContain('on \\u001b]0;title\\u0007 since');
      expect(text.stderr).toContain('[lock-timeout]');
      const result = JSON.parse(json.stdout) as { error: { reason: string; holder?: Holder } };
      expect(result.error.reason).toBe('lock-timeout');
      expectHolder(result.error.holder);
      const { error } = JSON.parse(json.stderr) as { error: { holder?: Holder } };
      expectHolder(error.holder);
    },
    60_000,
  );
});
