// End to end, as a host ships it: an observer on the BUILT cursorhooks/observer (dist/observer.js)
// installed with `install --heartbeat` by the built CLI (dist/cli.cjs), fired by `simulate-stop`
// (recorded as simulated; the matrix recorded nowhere) and as Cursor fires it, and read back by
// `status`; a stop Cursor ran from another version then leads to `requalify`, whose printed
// command line is run through `sh -c` exactly as printed.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, spawnCli } from '../demo/cli-process.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { BUILT_OBSERVER } from '../observer/built.js';
import { files, home, specArgs } from './file-support.js';
import { expectSchema } from './schema-check.js';

const ROOT = new URL('../../', import.meta.url);
const QUALIFIED = '3.22.12';
const NEWER = '3.23.0';

// Always build: a stale dist would test yesterday's CLI and observer.
beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
}, 180_000);

/** An observer as a host writes it: runStopObserver from the built entry, the heartbeat, the version. */
const observerScript = (heartbeat: string) => `#!${process.execPath}
import { runStopObserver } from ${JSON.stringify(pathToFileURL(BUILT_OBSERVER).href)};
runStopObserver({ contract: ${JSON.stringify(QUALIFIED)}, heartbeat: ${JSON.stringify(heartbeat)}, onStop: () => {} });
`;

function json(outcome: CliOutcome, schema: string) {
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  const result = JSON.parse(outcome.stdout);
  expectSchema(schema, result);
  return result;
}

describe('heartbeat end to end: the built observer, simulate-stop and status', () => {
  it('records a simulated stop as simulated and the matrix nowhere (red: status reads simulate-stop as Cursor), and a stop Cursor ran from another version names requalify with a line that runs as printed', async () => {
    const where = home();
    const bin = dirname(where.spec.executable);
    const heartbeat = join(where.dir, 'heartbeat.json');
    const observer = join(bin, 'stop-observer.mjs');
    writeFileSync(observer, observerScript(heartbeat));
    chmodSync(observer, 0o755);
    const spec = { executable: observer, selector: where.spec.selector };
    const run = (command: string, ...more: string[]) =>
      spawnCli([command, ...files(where), ...more, '--json'], '');

    json(await run('install', ...specArgs(spec), '--heartbeat', heartbeat), 'operation-result');

    // red: status invents a stop before any, or loses the heartbeat the install recorded
    const before = json(await run('status'), 'status-result');
    expect(before.heartbeat).toMatchObject({ path: heartbeat, state: 'no-stop', stops: null });
    expect(before.lastStop).toBeNull();
    expect(before.nextStep.code).toBe('none');

    // red: simulate-stop does not run the installed entry, or the observer's answer is not neutral
    const sentAt = Date.now();
    const first = json(await run('simulate-stop'), 'simulate-stop-result');
    expect(first).toMatchObject({ cursorVersion: QUALIFIED, passed: true });
    expect(first.run).toMatchObject({ verdict: 'neutral', exitCode: 0, stdout: '{}\n' });
    // red: simulate-stop cannot tell whether the stop reached the installed heartbeat
    expect(first.heartbeat).toEqual({ path: heartbeat, recorded: true, state: 'seen' });

    // red: the observer records nothing at the installed path, status misreads what it wrote,
    // or a simulated stop is recorded as one Cursor ran
    const seen = json(await run('status'), 'status-result');
    expect(seen.heartbeat).toMatchObject({ path: heartbeat, state: 'seen', stops: 1 });
    expect(seen.lastStop).toMatchObject({
      cursorVersion: QUALIFIED,
      verdict: 'qualified',
      status: 'completed',
      loopCount: 0,
      simulated: true,
    });
    const at = Date.parse(seen.lastStop.at);
    expect(at).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(seen.nextStep.code).toBe('none');

    // red: --cursor-version does not reach the observer, its verdict ignores the contract, or a
    // version simulate-stop chose reads as a Cursor update (requalify)
    const second = json(
      await run('simulate-stop', '--cursor-version', NEWER),
      'simulate-stop-result',
    );
    expect(second).toMatchObject({ cursorVersion: NEWER, passed: true });
    const simulated = json(await run('status'), 'status-result');
    expect(simulated.heartbeat).toMatchObject({ state: 'seen', stops: 2 });
    expect(simulated.lastStop).toMatchObject({
      cursorVersion: NEWER,
      verdict: 'version-differs',
      simulated: true,
    });
    expect(simulated.nextStep.code).toBe('none');

    // red: a stop Cursor runs (no mark in its environment) is recorded as simulated
    const command = JSON.parse(readFileSync(where.hooks, 'utf8')).hooks.stop[0].command;
    const cursors = spawnSync('/bin/sh', ['-c', command], {
      cwd: dirname(where.hooks),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: where.dir, CURSOR_VERSION: NEWER },
      input: JSON.stringify({
        hook_event_name: 'stop',
        cursor_version: NEWER,
        status: 'completed',
        loop_count: 0,
      }),
    });
    expect(cursors.stdout, cursors.stderr).toBe('{}\n');
    const differs = json(await run('status'), 'status-result');
    expect(differs.heartbeat).toMatchObject({ state: 'seen', stops: 3 });
    expect(differs.lastStop).toMatchObject({ cursorVersion: NEWER, verdict: 'version-differs' });
    expect(Object.keys(differs.lastStop)).not.toContain('simulated');
    expect(differs.nextStep.code).toBe('requalify');

    // red: the matrix says something of the heartbeat, which its cases never write
    expect(
      json(await run('simulate-stop', '--conformance'), 'simulate-stop-result').heartbeat,
    ).toBeNull();

    // red: the conformance matrix overwrites the heartbeat with its own cases
    const recorded = readFileSync(heartbeat, 'utf8');
    json(await run('simulate-stop', '--conformance'), 'simulate-stop-result');
    expect(readFileSync(heartbeat, 'utf8')).toBe(recorded);

    const line = differs.nextStep.command as string;
    expect(line).toMatch(/^cursorhooks qualify start --hooks-file /);

    // red: the printed line does not run as printed (quoting, a missing option, a wrong path)
    const path = join(where.dir, 'path-bin');
    mkdirSync(path);
    symlinkSync(BUILT_CLI, join(path, 'cursorhooks'));
    const hooksBefore = readFileSync(where.hooks, 'utf8');
    const shell = spawnSync('/bin/sh', ['-c', line], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path}:${process.env.PATH}` },
    });
    expect(shell.status, shell.stderr).toBe(0);
    const stateDir = join(dirname(where.ledger), 'cursorhooks-qualify');
    expect(readdirSync(stateDir).length).toBeGreaterThan(0);
    expect(readFileSync(where.hooks, 'utf8')).not.toBe(hooksBefore);

    // red: the probe the printed line started cannot be cancelled, or cancel leaves it behind
    json(
      await spawnCli(['qualify', 'cancel', '--state-dir', stateDir, '--json'], ''),
      'qualify-result',
    );
    expect(readdirSync(stateDir)).toEqual([]);
    expect(readFileSync(where.hooks, 'utf8')).toBe(hooksBefore);
  }, 120_000);

  // Red before: the observer wrote its stops to another file than install's, simulate-stop said
  // neutral and nothing else, and status said "no stop" for ever.
  it('says when a simulated stop did not reach the heartbeat install recorded, in JSON and text', async () => {
    const where = home();
    const bin = dirname(where.spec.executable);
    const heartbeat = join(where.dir, 'heartbeat.json');
    const observer = join(bin, 'stop-observer.mjs');
    writeFileSync(observer, observerScript(join(where.dir, 'elsewhere.json')));
    chmodSync(observer, 0o755);
    const spec = { executable: observer, selector: where.spec.selector };
    const run = (...args: string[]) => spawnCli([...args, ...files(where)], '');
    json(
      await run('install', ...specArgs(spec), '--heartbeat', heartbeat, '--json'),
      'operation-result',
    );
    const missed = json(await run('simulate-stop', '--json'), 'simulate-stop-result');
    expect(missed).toMatchObject({ passed: true });
    expect(missed.heartbeat).toEqual({ path: heartbeat, recorded: false, state: 'no-stop' });
    const text = await run('simulate-stop');
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(
      `heartbeat: NOT RECORDED: this stop did not reach ${heartbeat} (no-stop)`,
    );
  }, 60_000);
});
