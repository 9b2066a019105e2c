// Live holders that no probe can see into keep their locks, and what dead ones leave behind is
// swept, with real processes: a /proc hidden under a tmpfs (as on macOS and Windows, where there
// is none), and waiters killed inside a pid namespace.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withLock, withSweptLock } from '../../src/node/lock/lock.js';
import type { HoldLockJob } from './child/hold-lock.js';
import type { LockTimingJob } from './child/lock-timing.js';
import { buildChild } from './child/spawn.js';
import { strays, tempDir } from './support.js';

let timing: { script: string; dispose: () => void };
let holding: { script: string; dispose: () => void };
beforeAll(async () => {
  timing = await buildChild('lock-timing');
  holding = await buildChild('hold-lock');
}, 60_000);
afterAll(() => {
  timing.dispose();
  holding.dispose();
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) if (proc.exitCode === null) proc.kill('SIGKILL');
});

/** Whether `unshare` may make these namespaces here; the reason printed when it may not. */
function canUnshare(args: readonly string[], what: string): boolean {
  const probe = spawnSync('unshare', [...args, 'true']);
  if (probe.status === 0) return true;
  console.log(`skipped: ${what} is not allowed here (${probe.stderr?.toString().trim()})`);
  return false;
}
const mountNamespaces = canUnshare(['--mount', '--propagation', 'private'], 'unshare --mount');
const pidNamespaces = canUnshare(['--pid', '--fork', '--mount-proc'], 'unshare --pid');

/** Runs `command` to its end; its stdout lines `<pid> <state> <value>` by state, in order. */
function run(command: string, args: readonly string[]): Promise<Map<string, string[]>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(proc);
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    proc.on('error', reject);
    proc.on('close', () => {
      const states = new Map<string, string[]>();
      for (const line of out.split('\n').filter(Boolean)) {
        const [, state = '', value = ''] = line.split(' ');
        states.set(state, [...(states.get(state) ?? []), value]);
      }
      resolve(states);
    });
  });
}

describe('a live holder where /proc cannot be read', () => {
  // Red before: without /proc a live holder on this host was judged by the 3 s lease, and a
  // holder blocked in synchronous work (no refresh) lost its lock to a waiter at 3 s.
  it.skipIf(!mountNamespaces)(
    'keeps its lock through 5 s of synchronous work; the waiter gets it only after',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const job = (blockMs: number): string =>
        JSON.stringify({ target, blockMs, timeoutMs: 20_000 } satisfies LockTimingJob);
      // One mount namespace for both, its /proc hidden under a tmpfs.
      const script = [
        'mount -t tmpfs tmpfs /proc || exit 1',
        '"$0" "$1" "$2" & sleep 1',
        '"$0" "$1" "$3"',
        'wait',
      ].join('\n');
      const states = await run('unshare', [
        '--mount',
        '--propagation',
        'private',
        'sh',
        '-c',
        script,
        process.execPath,
        timing.script,
        job(5_000),
        job(0),
      ]);
      const [holderHeld, waiterHeld] = (states.get('held') ?? []).map(Number);
      const [holderReleasing] = (states.get('releasing') ?? []).map(Number);
      expect(states.get('failed')).toBeUndefined();
      expect(waiterHeld, 'the waiter never got the lock').toBeDefined();
      expect(holderReleasing as number).toBeGreaterThanOrEqual((holderHeld as number) + 4_900);
      expect(waiterHeld as number).toBeGreaterThanOrEqual(holderReleasing as number);
      expect(strays(dir)).toEqual([]);
    },
    40_000,
  );
});

describe('side files of a waiter killed inside a pid namespace', () => {
  // Red before: the files were judged by the pid in their names (1 inside the namespace), which
  // is alive out here, so every later writer kept them forever.
  it.skipIf(!pidNamespaces)(
    'are swept by the next writer once the namespace is gone, with the temp file of a dead holder',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const staging = (): string[] => readdirSync(dir).filter((n) => n.includes('lock-'));
      // A temp file a holder killed inside a namespace left: named for its pid there.
      const temp = join(dir, 'hooks.json.cursorhooks-1-0123456789ab.tmp');
      writeFileSync(temp, '{"version":1}');
      await withLock(target, async () => {
        const job: HoldLockJob = { target, mode: 'wait', interrupt: false };
        const waiter = spawn(
          'unshare',
          [
            '--pid',
            '--fork',
            '--mount-proc',
            '--kill-child',
            process.execPath,
            holding.script,
            JSON.stringify(job),
          ],
          { stdio: 'ignore' },
        );
        started.push(waiter);
        // Its staging file holds its record: pid 1, the namespace, its start time.
        const deadline = Date.now() + 15_000;
        while (staging().length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(staging()).toHaveLength(1);
        const exited = new Promise((resolve) => waiter.on('exit', resolve));
        waiter.kill('SIGKILL');
        await exited;
      });
      expect(staging()).toHaveLength(1);
      const left = staging().map((n) => readFileSync(join(dir, n), 'utf8'));
      await withSweptLock(target, async () => undefined);
      expect(strays(dir), left.join()).toEqual([]);
      expect(existsSync(temp)).toBe(false);
    },
    30_000,
  );
});
