// install --heartbeat and what status prints of the heartbeat: the JSON fields and their schema,
// the text lines, and the requalify command line, which must run as printed.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliOutcome } from '../demo/lifecycle.js';
import { fileCli, files, home, install, readHooks, specArgs, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

/** The words of a printed command line, unquoted as a POSIX shell would. */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'"'"')*)'|(\S+)/g)].map((m) =>
    m[1] === undefined ? (m[2] as string) : m[1].replaceAll(`'"'"'`, "'"),
  );
}

function statusJSON(outcome: CliOutcome) {
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  const result = JSON.parse(outcome.stdout);
  expectSchema('status-result', result);
  return result;
}

const stopFrom = (
  cursorVersion: string | null,
  verdict: string | null = null,
  more: Record<string, unknown> = {},
) =>
  JSON.stringify({
    version: 1,
    stops: 1,
    lastStop: {
      at: new Date(Date.now() + 60_000).toISOString(),
      cursorVersion,
      verdict,
      status: 'completed',
      loopCount: 0,
      ...more,
    },
  });

describe('install --heartbeat and status', () => {
  it('refuses a relative --heartbeat as usage, writing nothing (red: the path is kept relative to the working directory)', async () => {
    const where = home();
    const outcome = await install(where, '--heartbeat', 'beat.json');
    expect(outcome.exitCode).toBe(2);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({ reason: 'option-path-relative' });
  });

  it('refuses a --heartbeat whose directory does not exist, exit 1 with role and path, writing neither file, and names fix-heartbeat-path (red: the mistyped path is recorded, and status later only says no stop was seen)', async () => {
    const where = home();
    writeHooks(where);
    const hooks = readHooks(where);
    const heartbeat = join(where.dir, 'no', 'such', 'dir', 'hb.json');
    const outcome = await install(where, '--heartbeat', heartbeat);
    expect(outcome.exitCode).toBe(1);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      kind: 'conflict',
      reason: 'heartbeat-directory-missing',
      role: 'heartbeat',
      path: heartbeat,
    });
    const printed = JSON.parse(outcome.stdout);
    expectSchema('operation-result', printed);
    expect(printed).toMatchObject({ status: 'refused', changed: false });
    expect(printed.nextStep).toMatchObject({ code: 'fix-heartbeat-path', command: null });
    expect(readHooks(where)).toBe(hooks);
    expect(existsSync(where.ledger)).toBe(false);
    const text = await cli([
      'install',
      ...files(where),
      ...specArgs(where.spec),
      '--heartbeat',
      heartbeat,
    ]);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain(`(heartbeat file: ${heartbeat}) [heartbeat-directory-missing]`);
  });

  it('refuses a --heartbeat that names a directory, exit 1, writing nothing (red: the observer is pointed at a path it can never rename over)', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'beat.json');
    mkdirSync(heartbeat);
    const outcome = await install(where, '--heartbeat', heartbeat);
    expect(outcome.exitCode).toBe(1);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      reason: 'heartbeat-is-directory',
      role: 'heartbeat',
      path: heartbeat,
    });
    expect(existsSync(where.hooks)).toBe(false);
    expect(existsSync(where.ledger)).toBe(false);
  });

  it('says the heartbeat directory is gone, in JSON and text, with next step fix-heartbeat-path (red: a vanished directory reads as "no stop seen")', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'state', 'beat.json');
    mkdirSync(join(where.dir, 'state'));
    expect((await install(where, '--heartbeat', heartbeat)).exitCode).toBe(0);
    rmSync(join(where.dir, 'state'), { recursive: true });
    const result = statusJSON(await fileCli('status', where));
    expect(result.heartbeat).toMatchObject({
      state: 'directory-missing',
      reason: 'heartbeat-directory-missing',
    });
    expect(result.nextStep).toMatchObject({ code: 'fix-heartbeat-path', command: null });
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain(
      '  its directory is gone (heartbeat-directory-missing): no stop can be recorded',
    );
    expect(text.stdout).toContain('next step: fix-heartbeat-path: ');
  });

  it('reports no heartbeat and no lastStop where none was recorded (red: hosts without one see new fields)', async () => {
    const where = home();
    expect((await install(where)).exitCode).toBe(0);
    const result = statusJSON(await fileCli('status', where));
    expect(Object.keys(result)).not.toContain('heartbeat');
    expect(Object.keys(result)).not.toContain('lastStop');
  });

  it('reports lastStop null before the first stop, then the stop, in JSON and text (red: the recorded heartbeat is never read)', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'beat.json');
    expect((await install(where, '--heartbeat', heartbeat)).exitCode).toBe(0);
    const before = statusJSON(await fileCli('status', where));
    expect(before.heartbeat).toMatchObject({ path: heartbeat, state: 'no-stop', stops: null });
    expect(before.lastStop).toBeNull();
    writeFileSync(heartbeat, stopFrom('3.22.12', 'qualified'));
    const after = statusJSON(await fileCli('status', where));
    expect(after.heartbeat).toMatchObject({ state: 'seen', stops: 1, reason: null });
    expect(after.lastStop).toMatchObject({ cursorVersion: '3.22.12', verdict: 'qualified' });
    expect(after.nextStep.code).toBe('none');
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain(`heartbeat: ${heartbeat} (installed `);
    expect(text.stdout).toMatch(/last stop .* \(1 in all\): Cursor "3\.22\.12", verdict qualified/);
  });

  it('prints a simulated last stop as simulated, in JSON and text, with next step none (red: a simulated stop reads as one Cursor ran)', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'beat.json');
    expect((await install(where, '--heartbeat', heartbeat)).exitCode).toBe(0);
    writeFileSync(heartbeat, stopFrom('3.23.0', 'version-differs', { simulated: true }));
    const result = statusJSON(await fileCli('status', where));
    expect(result.lastStop).toMatchObject({ cursorVersion: '3.23.0', simulated: true });
    expect(result.nextStep.code).toBe('none');
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toMatch(
      /last stop .* \(1 in all, simulated by simulate-stop, not run by Cursor\): Cursor "3\.23\.0"/,
    );
  });

  it('says unreadable for a malformed heartbeat, in JSON and text (red: a bad file breaks status or is trusted)', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'beat.json');
    expect((await install(where, '--heartbeat', heartbeat)).exitCode).toBe(0);
    writeFileSync(heartbeat, '{"version":1}');
    const result = statusJSON(await fileCli('status', where));
    expect(result.heartbeat).toMatchObject({ state: 'unreadable', reason: 'heartbeat-malformed' });
    expect(result.lastStop).toBeNull();
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain('  unreadable (heartbeat-malformed): nothing in it is trusted');
  });

  it('names requalify after a stop from another version, with a qualify start line that runs as printed (red: the printed line is refused or missing)', async () => {
    const where = home();
    const heartbeat = join(where.dir, 'beat.json');
    expect((await install(where, '--heartbeat', heartbeat)).exitCode).toBe(0);
    writeFileSync(heartbeat, stopFrom('3.23.0', 'version-differs'));
    const result = statusJSON(await fileCli('status', where));
    expect(result.nextStep.code).toBe('requalify');
    const line = result.nextStep.command as string;
    expect(line).toContain('qualify start --hooks-file');
    const [program, ...args] = words(line);
    expect(program).toBe('cursorhooks');
    const started = await cli([...args, '--json']);
    expect(started.exitCode, started.stderr).toBe(0);
    expectSchema('qualify-result', JSON.parse(started.stdout));
    const stateDir = args[args.indexOf('--state-dir') + 1] as string;
    expect((await cli(['qualify', 'cancel', '--state-dir', stateDir])).exitCode).toBe(0);
    const text = await cli(['status', ...files(where)]);
    expect(text.stdout).toContain(`next step: requalify: `);
    expect(text.stdout).toContain(`\n  ${line}\n`);
  });
});
