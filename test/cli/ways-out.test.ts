// The CLI side of "every refusal has a way out": status names a command line, the command it
// names works from that state, and every output of the way validates against its schema.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { errorLine } from '../../src/cli/error-output.js';
import { failureJSON } from '../../src/cli/file/failure.js';
import { Operation } from '../../src/index.js';
import { HostIOError } from '../../src/node/errors.js';
import { beginPending } from '../../src/node/ledger/fence.js';
import { encodeLedger, type LedgerRecord, readLedger } from '../../src/node/ledger/ledger.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { fileCli, files, home, install, readHooks, specArgs, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

function statusOf(outcome: CliOutcome) {
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  const result = JSON.parse(outcome.stdout);
  expectSchema('status-result', result);
  return result as {
    owned: { state: string; unowned: { event: string; index: number }[] };
    nextStep: { code: string; command: string | null };
  };
}

/** The words of a printed command line, unquoted as a POSIX shell would. */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'"'"')*)'|(\S+)/g)].map((m) =>
    m[1] === undefined ? (m[2] as string) : m[1].replaceAll(`'"'"'`, "'"),
  );
}

/** Runs the command status printed, exactly as printed (without the program name), with --json. */
async function runNamed(line: string): Promise<CliOutcome> {
  const [program, ...args] = words(line);
  expect(program).toBe('cursorhooks');
  return cli([...args, '--json']);
}

describe('status names a command line that leaves the state', () => {
  it('for a hand-edited entry: release, then the entry by event and index, then install (red: owner-modified is a dead end)', async () => {
    const where = home();
    writeHooks(where);
    expect((await install(where)).exitCode).toBe(0);
    const tampered = readHooks(where).replace('"timeout": 5', '"timeout": 9');
    writeFileSync(where.hooks, tampered);
    const first = statusOf(await fileCli('status', where));
    expect(first.nextStep.code).toBe('release');
    const released = await runNamed(first.nextStep.command as string);
    expect(released.exitCode, released.stderr).toBe(0);
    expectSchema('release-result', JSON.parse(released.stdout));
    expect(readHooks(where)).toBe(tampered);
    const second = statusOf(await fileCli('status', where));
    expect(second.owned).toMatchObject({
      state: 'released',
      unowned: [{ event: 'stop', index: 1 }],
    });
    // Kept after release, the entry is the user's (red: status loops back to a hand step).
    expect(second.nextStep).toEqual(expect.objectContaining({ code: 'none', command: null }));
    writeHooks(where);
    const third = statusOf(await fileCli('status', where));
    expect(third.nextStep.code).toBe('install');
    // The printed install line carries the released spec and shell: it runs as printed.
    const installed = await runNamed(third.nextStep.command as string);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(statusOf(await fileCli('status', where)).nextStep.code).toBe('none');
  });

  it('for a pending-unresolved refusal: the result validates and the text never says it settled (red: settled "unresolved" breaks the schema)', async () => {
    const where = home();
    writeHooks(where);
    expect((await install(where)).exitCode).toBe(0);
    const record = (await readLedger(where.ledger)).records.get(where.hooks) as LedgerRecord;
    const pending = beginPending(record, Operation.Remove, null);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, pending]])));
    writeFileSync(where.hooks, readHooks(where).replace('"timeout": 5', '"timeout": 9'));
    const refused = await fileCli('remove', where);
    expect(refused.exitCode).toBe(1);
    const result = JSON.parse(refused.stdout);
    expectSchema('operation-result', result);
    expect(result).toMatchObject({ settled: null, error: { reason: 'pending-unresolved' } });
    const text = await cli(['remove', ...files(where)]);
    expect(text.stdout).not.toContain('settled');
    const s = statusOf(await fileCli('status', where));
    expect(s.nextStep.code).toBe('release');
    expect((await runNamed(s.nextStep.command as string)).exitCode).toBe(0);
    expect((await fileCli('remove', where)).exitCode).toBe(1);
    expect(statusOf(await fileCli('status', where)).nextStep.code).toBe('none');
  });
});

describe('status reports locks', () => {
  it('names a stale lock as recovered by the next command and a live one with its holder (red: status never mentions a lock)', async () => {
    const where = home();
    writeHooks(where);
    const dead = spawnSync('true').pid as number;
    const record = (pid: number) =>
      JSON.stringify({
        pid,
        hostname: hostname(),
        acquiredAt: '2026-12-03T00:00:00.000Z',
        nonce: 'ab',
      });
    writeFileSync(lockPathOf(where.hooks), record(dead));
    writeFileSync(lockPathOf(where.ledger), record(process.pid));
    const outcome = await fileCli('status', where);
    const result = JSON.parse(outcome.stdout);
    expectSchema('status-result', result);
    expect(result.locks).toEqual([
      expect.objectContaining({
        role: 'hook-file',
        state: 'stale',
        holder: expect.objectContaining({ pid: dead }),
      }),
      expect.objectContaining({
        role: 'ledger',
        state: 'held',
        holder: expect.objectContaining({ pid: process.pid }),
      }),
    ]);
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain('the next command recovers it');
    expect(text.stdout).toContain(`held by pid ${process.pid}`);
  });
});

describe('status on a hook file that is not valid JSON', () => {
  it('names the line, column and byte of the stray comma (red: a 300-line file must be searched by hand)', async () => {
    const where = home();
    writeFileSync(where.hooks, '{\n  "version": 1,\n  "hooks": {},\n}\n');
    const result = JSON.parse((await fileCli('status', where)).stdout);
    expectSchema('status-result', result);
    expect(result.file).toMatchObject({
      state: 'refused',
      reason: 'json-syntax',
      at: { line: 3, column: 14, offset: 31 },
    });
    expect(result.nextStep.code).toBe('fix-file');
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain('at line 3, column 14 (byte 31)');
  });
});

describe('usage errors a newcomer can act on', () => {
  it.each([
    ['--hooks-file', ['--hooks-file', 'hooks.jsn', '--ledger', '/tmp/l.json']],
    ['--ledger', ['--hooks-file', '/tmp/h.json', '--ledger', 'ledger.json']],
  ])(
    'refuses a relative %s before touching anything (red: a typo makes a stray file)',
    async (option, args) => {
      const outcome = await cli(['status', ...args, '--json']);
      expect(outcome.exitCode).toBe(2);
      expect(JSON.parse(outcome.stderr).error).toMatchObject({
        reason: 'option-path-relative',
        option,
      });
    },
  );

  it('refuses --ledger naming the hook file at once (red: it waits ten seconds for its own lock)', async () => {
    const where = home();
    const outcome = await cli([
      'install',
      '--hooks-file',
      where.hooks,
      '--ledger',
      where.hooks,
      ...specArgs(where.spec),
      '--json',
    ]);
    expect(outcome.exitCode).toBe(2);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      reason: 'ledger-is-hook-file',
      option: '--ledger',
    });
  });

  it('lists the registered contract ids for an unknown --shell (red: the user must guess)', async () => {
    const where = home();
    const outcome = await fileCli(
      'install',
      where,
      '--executable',
      where.spec.executable,
      '--selector',
      where.spec.selector,
      '--shell',
      'bash',
    );
    expect(outcome.exitCode).toBe(2);
    const { error } = JSON.parse(outcome.stderr);
    expect(error).toMatchObject({ reason: 'shell-unknown', option: '--shell' });
    expect(error.message).toContain('cursor-linux-user-3.22.12-single-quote');
    expect(error.message).not.toContain('bash');
  });

  it('refuses a request that repeats a key, at any depth (red: {"operation":"install","operation":"remove"} runs remove)', async () => {
    for (const request of [
      '{"operation":"install","operation":"remove","document":null}',
      '{"operation":"install","document":null,"specs":[{"executable":"/a","executable":"/b","selector":"/s"}]}',
      '{"operation":"install","\\u006fperation":"remove"}',
    ]) {
      const outcome = await cli(['plan'], request);
      expect(outcome.exitCode, request).toBe(2);
      expect(JSON.parse(outcome.stderr).error.reason).toBe('request-duplicate-key');
    }
    // Equal values under different keys, and equal keys in sibling objects, are fine.
    const ok = await cli(
      ['plan'],
      '{"operation":"install","document":null,"specs":[{"executable":"/a","selector":"/a"}],"shell":"x"}',
    );
    expect(ok.exitCode).not.toBe(2);
    expect(ok.stderr).not.toContain('request-duplicate-key');
  });

  it('names the file, its role and a lock holder in both error shapes (red: permission-denied and lock-timeout name neither)', () => {
    const denied = failureJSON(
      new HostIOError('permission-denied', 'EACCES', { role: 'ledger', path: '/home/ada/l.json' }),
    );
    expectSchema('error', { error: denied });
    expect(denied).toMatchObject({ kind: 'io', role: 'ledger', path: '/home/ada/l.json' });
    expect(errorLine(denied)).toContain('(ledger: /home/ada/l.json)');
    const holder = { pid: 42, hostname: 'box', acquiredAt: '2026-12-03T00:00:00.000Z' };
    const timeout = failureJSON(
      new HostIOError('lock-timeout', undefined, {
        role: 'lock',
        path: '/h.json.cursorhooks-lock',
        holder,
      }),
    );
    expectSchema('error', { error: timeout });
    expect(errorLine(timeout)).toContain('held by pid 42 on box since 2026-12-03T00:00:00.000Z');
  });
});
