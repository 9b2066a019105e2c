// `cursorhooks qualify`: every result validates against schemas/qualify-result.json, refusals
// are printed as results and as the one error shape with exit 1, and misuse is a usage error
// naming the option, before anything is made.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fire, type ProbeHome, probeHome, USER_HOOKS } from '../node/qualify-support.js';
import { expectSchema } from './schema-check.js';
import { cli, expectUsageError } from './support.js';

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
