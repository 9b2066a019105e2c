// The built CLI on a planted lock name: refused within the lock timeout, and SIGTERM honoured
// within a second whatever the lock holds, leaving no side file.
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withLock } from '../../src/node/lock/lock.js';
import { files, home, specArgs, writeHooks } from '../cli/file-support.js';
import { BUILT_CLI } from '../demo/cli-process.js';

const ROOT = new URL('../../', import.meta.url);

// Always bundle: a stale dist would test yesterday's CLI.
beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** Milliseconds from the SIGTERM (or the start, if none was sent) to the exit. */
  readonly after: number;
}

/**
 * Runs `install` on `where`; sends SIGTERM once `ready(names in .cursor)` holds (if given). Kills
 * it with SIGKILL after `boundMs`, which the test then sees as a process that did not end.
 */
function install(
  where: ReturnType<typeof home>,
  boundMs: number,
  ready?: (names: readonly string[]) => boolean,
): Promise<Ended & { killed: boolean }> {
  const child = spawn(
    process.execPath,
    [BUILT_CLI, 'install', ...files(where), ...specArgs(where.spec), '--json'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let from = performance.now();
  let killed = false;
  const dir = join(where.hooks, '..');
  const poll = setInterval(() => {
    if (ready?.(readdirSync(dir))) {
      ready = undefined;
      from = performance.now();
      child.kill('SIGTERM');
    }
  }, 5);
  const bound = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, boundMs);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      clearTimeout(bound);
      resolve({ code, signal, stderr, after: performance.now() - from, killed });
    }),
  );
}

const stagingOf = (names: readonly string[]): boolean =>
  names.some((name) => name.startsWith('hooks.json.cursorhooks-lock-'));
const sideFiles = (where: ReturnType<typeof home>): string[] =>
  readdirSync(join(where.hooks, '..')).filter(
    (name) => name.includes('.cursorhooks-') && name !== 'hooks.json.cursorhooks-lock',
  );

describe('the built CLI on a lock name that is a dangling symlink', () => {
  // Red before: install spun at full CPU forever (only SIGKILL ended it), its staging file left.
  it('refuses install lock-foreign within the lock timeout, leaving the link and no side file', async () => {
    const where = home();
    writeHooks(where);
    const lock = `${where.hooks}.cursorhooks-lock`;
    symlinkSync('/nonexistent/x', lock);
    const ended = await install(where, 30_000);
    expect(ended.killed, 'install never ended').toBe(false);
    expect(ended.code).toBe(74);
    expect(JSON.parse(ended.stderr).error).toMatchObject({ reason: 'lock-foreign', path: lock });
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
    expect(sideFiles(where)).toEqual([]);
  }, 60_000);

  // Red before: the spinning loop never returned to the event loop, so SIGTERM's handler never
  // ran and the process ignored it.
  it('ends on SIGTERM at once, whatever point it reached, leaving no side file', async () => {
    const where = home();
    writeHooks(where);
    symlinkSync('/nonexistent/x', `${where.hooks}.cursorhooks-lock`);
    const ended = await install(where, 30_000, stagingOf);
    expect(ended.killed, 'install ignored SIGTERM').toBe(false);
    expect(sideFiles(where)).toEqual([]);
  }, 60_000);
});

describe('the built CLI waiting for a live holder', () => {
  // Red if a wait loop stopped sleeping between passes: the handler would never run.
  it('ends by SIGTERM within a second while it waits, leaving no side file', async () => {
    const where = home();
    writeHooks(where);
    const ended = await withLock(where.hooks, () => install(where, 30_000, stagingOf));
    expect(ended.killed, 'install ignored SIGTERM').toBe(false);
    expect(ended.signal).toBe('SIGTERM');
    // Generous: the claim is a second; the lock timeout (10 s) is what a missed signal costs.
    expect(ended.after).toBeLessThan(5_000);
    expect(sideFiles(where)).toEqual([]);
  }, 60_000);
});
