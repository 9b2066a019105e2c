// `cursorhooks qualify`: every result validates against schemas/qualify-result.json, refusals
// are printed as results and as the one error shape with exit 1, and misuse is a usage error
// naming the option, before anything is made.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fire, type ProbeHome, probeHome, USER_HOOKS } from '../node/qualify-support.js';
import { expectSchema } from './schema-check.js';
import { cli, cliLine, expectUsageError } from './support.js';

const qualify = (...args: string[]) => cli(['qualify', ...args, '--json']);
const start = (where: ProbeHome) =>
  qualify(
    'start',
    '--state-dir',
    where.stateDir,
    '--hooks-file',
    where.hooksFile,
    '--family',
    'posix-single-quote',
  );

describe('qualify --json results', () => {
  it('start, status, finish and status again each print one object the schema accepts (red: a result a host cannot validate)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir];
    const results: unknown[] = [];
    const started = await start(where);
    expect(started.exitCode, started.stderr).toBe(0);
    results.push(JSON.parse(started.stdout));
    const waiting = JSON.parse((await qualify('status', ...dir)).stdout);
    expect(waiting.nextStep).toMatchObject({ code: 'fire-stop', command: null });
    results.push(waiting);
    await fire(where);
    const fired = JSON.parse((await qualify('status', ...dir)).stdout);
    expect(fired.nextStep.code).toBe('finish');
    expect(fired.nextStep.command).toContain('cursorhooks qualify finish --state-dir');
    results.push(fired);
    const finished = await qualify('finish', ...dir, '--out', where.out);
    expect(finished.exitCode, finished.stderr).toBe(0);
    results.push(JSON.parse(finished.stdout));
    results.push(JSON.parse((await qualify('status', ...dir)).stdout));
    results.push(JSON.parse((await qualify('cancel', ...dir)).stdout));
    for (const result of results) expectSchema('qualify-result', result);
    expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
  });

  it('a refusal prints the result with its error, then the error on stderr, exit 1 (red: a host sees exit 0 or loses the report)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir];
    await start(where);
    await fire(where, { misbehave: 'drop-empty' });
    const refused = await qualify('finish', ...dir, '--out', where.out);
    expect(refused.exitCode).toBe(1);
    const result = JSON.parse(refused.stdout);
    expectSchema('qualify-result', result);
    expect(result.error.reason).toBe('probe-argv-mismatch');
    expect(
      result.invocations[0].tokens.filter((t: { equal: boolean }) => !t.equal).length,
    ).toBeGreaterThan(0);
    expect(JSON.parse(refused.stderr).error.reason).toBe('probe-argv-mismatch');
    expect(existsSync(where.out)).toBe(false);
    // Text mode shows each differing token.
    const text = await cli(['qualify', 'finish', ...dir, '--out', where.out]);
    expect(text.stdout).toMatch(/token 5: meant "", got "it's"/);
    const cancelled = await qualify('cancel', ...dir);
    expectSchema('qualify-result', JSON.parse(cancelled.stdout));
    expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
  });
});

describe('qualify status after a stop that reported no version', () => {
  // Red before: status said "run qualify finish", and finish refused qualify-version-unreported.
  it('names cancel with its reason and a line that runs as printed and ends the probe', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir];
    await start(where);
    await fire(where, { versionOnStdin: false, versionInEnv: false });
    const status = await cli(['qualify', 'status', ...dir]);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toContain(
      'recorded: 1 stop invocation(s), 1 matching, 1 reporting no Cursor version (finish ignores them)',
    );
    expect(status.stdout).toMatch(/^error: .*\[qualify-version-unreported\]$/m);
    expect(status.stdout).toMatch(/^next: run qualify cancel: /m);
    const line = status.stdout.split('\n').find((l) => l.startsWith('  cursorhooks')) as string;
    const cancelled = await cliLine(line.trim());
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    expect(readFileSync(where.hooksFile, 'utf8')).toBe(USER_HOOKS);
  });
  // Red before: finish refused record-version-mismatch, though no record existed yet.
  it('then a versioned stop: status names finish, whose line runs as printed, says what it ignored and writes the record', async () => {
    const where = probeHome();
    await start(where);
    await fire(where, { versionOnStdin: false, versionInEnv: false });
    await fire(where, { cursorVersion: '3.24.0' });
    const status = JSON.parse((await qualify('status', '--state-dir', where.stateDir)).stdout);
    expectSchema('qualify-result', status);
    expect(status.nextStep.code).toBe('finish');
    const finished = await cliLine(status.nextStep.command);
    expect(finished.exitCode, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(
      'recorded: 2 stop invocation(s), 2 matching, 1 reporting no Cursor version (finish ignores them)',
    );
    expect(finished.stdout).toContain('contract: cursor-3.24.0-');
  });
});

describe('qualify usage errors (red: misuse reaches the probe or is silently ignored)', () => {
  const where = () => probeHome();
  it('needs an action, and a known one', async () => {
    const home = where();
    expectUsageError(await qualify('--state-dir', home.stateDir), 'action-missing');
    expectUsageError(await qualify('begin', '--state-dir', home.stateDir), 'action-unknown');
  });
  it('refuses an option the action does not take, and a missing one it needs', async () => {
    const home = where();
    expectUsageError(
      await qualify('status', '--state-dir', home.stateDir, '--out', '/tmp/x'),
      'option-not-for-action',
      { option: '--out' },
    );
    expectUsageError(await qualify('start', '--state-dir', home.stateDir), 'option-required', {
      option: '--family',
    });
    expectUsageError(await qualify('finish', '--state-dir', home.stateDir), 'option-required', {
      option: '--out',
    });
    expectUsageError(await qualify('cancel'), 'option-required', {
      option: '--state-dir',
    });
  });
  it('names the families when --family is not one, and makes nothing', async () => {
    const home = where();
    const refused = expectUsageError(
      await qualify('start', '--state-dir', home.stateDir, '--family', 'bash'),
      'family-unknown',
      { option: '--family' },
    );
    expect(refused.message).toContain('posix-single-quote, powershell-stop');
    expect(existsSync(home.stateDir)).toBe(false);
  });
  it('refuses relative paths', async () => {
    const home = where();
    expectUsageError(await qualify('status', '--state-dir', 'state'), 'option-path-relative', {
      option: '--state-dir',
    });
    expectUsageError(
      await qualify('finish', '--state-dir', home.stateDir, '--out', 'record.json'),
      'option-path-relative',
      { option: '--out' },
    );
    expect(existsSync(join(home.home, 'host state'))).toBe(false);
  });
});
