// Stale locks recovered whatever the host name or pid namespace, live ones never broken, and
// the lock's failures naming it. Real processes: a holder SIGKILLed in a pid namespace, a zombie
// holder, live holders in and out of a namespace.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostIOError } from '../../src/node/errors.js';
import { inspectLock, withLock } from '../../src/node/lock/lock.js';
import { selfIdentity } from '../../src/node/lock/process-identity.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import type { HoldLockJob } from './child/hold-lock.js';
import { buildChild } from './child/spawn.js';
import { strays, tempDir } from './support.js';

let child: { script: string; dispose: () => void };
beforeAll(async () => {
  child = await buildChild('hold-lock');
}, 60_000);
afterAll(() => child.dispose());

const started: ChildProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) if (proc.exitCode === null) proc.kill('SIGKILL');
});

/** A started child and the pid each `<pid> <state>` line it printed reports, by state. */
interface Started {
  readonly proc: ChildProcess;
  readonly reached: (state: string) => Promise<number>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Started {
  const proc = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  started.push(proc);
  let out = '';
  const waiting: Array<() => void> = [];
  proc.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const reached = async (state: string): Promise<number> => {
    for (;;) {
      const line = out.split('\n').find((l) => l.endsWith(` ${state}`));
      if (line !== undefined) return Number(line.split(' ')[0]);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return { proc, reached, exited };
}

function jobArg(target: string, mode: HoldLockJob['mode'], interrupt = false): string {
  return JSON.stringify({ target, mode, interrupt } satisfies HoldLockJob);
}

/** Whether this machine lets us make a pid namespace; the reason printed when it does not. */
function pidNamespaces(): boolean {
  const probe = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']);
  if (probe.status === 0) return true;
  console.log(
    `skipped: unshare --pid --fork --mount-proc is not allowed here (${probe.error?.message ?? probe.stderr.toString().trim()})`,
  );
  return false;
}
const canUnshare = pidNamespaces();
const onLinux = selfIdentity().bootId !== undefined;

function holdInNamespace(target: string): Started {
  // --kill-child: the holder (pid 1 inside) is SIGKILLed when unshare itself is.
  return start('unshare', [
    '--pid',
    '--fork',
    '--mount-proc',
    '--kill-child',
    process.execPath,
    child.script,
    jobArg(target, 'hold'),
  ]);
}

const entered = async (): Promise<string> => 'entered';

describe('a stale lock is recovered whatever the host name or pid namespace', () => {
  // Red before: the namespace-local pid 1 is alive on the host, so every later run timed out.
  it.skipIf(!canUnshare)(
    'recovers the lock of a holder SIGKILLed inside a pid namespace',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const holder = holdInNamespace(target);
      expect(await holder.reached('held')).toBe(1);
      holder.proc.kill('SIGKILL');
      await holder.exited;
      expect(await withLock(target, entered, { timeoutMs: 10_000, leaseMs: 500 })).toBe('entered');
      expect(strays(dir)).toEqual([]);
    },
    20_000,
  );

  // Red before: kill(pid, 0) succeeds on a zombie, so a killed but unreaped holder held forever.
  it.skipIf(!onLinux)(
    'recovers the lock of a zombie holder at once, by proof',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      // The shell starts the holder, then becomes `sleep`, which never reaps it.
      const parent = start('sh', ['-c', '"$NODE" "$SCRIPT" "$JOB" & exec sleep 60'], {
        NODE: process.execPath,
        SCRIPT: child.script,
        JOB: jobArg(target, 'hold'),
      });
      const pid = await parent.reached('held');
      process.kill(pid, 'SIGKILL');
      while (!/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await withLock(target, entered, { timeoutMs: 2_000, leaseMs: 600_000 })).toBe(
        'entered',
      );
      expect(strays(dir)).toEqual([]);
    },
    20_000,
  );

  // Red before: a record naming our own pid was never judged, so a container that starts the
  // CLI at the same low pid as the killed one waited forever.
  it.skipIf(!onLinux)(
    'recovers a record with our own pid and another start time at once',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const record = {
        pid: process.pid,
        hostname: hostname(),
        acquiredAt: '2026-01-01T00:00:00Z',
        nonce: 'ab',
        ...selfIdentity(),
        startTime: '1',
      };
      writeFileSync(lockPathOf(target), JSON.stringify(record));
      expect(await withLock(target, entered, { timeoutMs: 300, leaseMs: 600_000 })).toBe('entered');
      expect(strays(dir)).toEqual([]);
    },
  );

  // Red before: a lock naming another host name (a renamed Mac, a new container) was never
  // recovered.
  it('recovers an unrefreshed lock naming another host name after the lease', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const record = { pid: 1, hostname: 'another-host', acquiredAt: 'x', nonce: 'ab' };
    writeFileSync(lockPathOf(target), JSON.stringify(record));
    expect(await withLock(target, entered, { timeoutMs: 3_000, leaseMs: 300 })).toBe('entered');
    expect(strays(dir)).toEqual([]);
  });
});

describe('a live holder is never broken', () => {
  // Red if the holder stops refreshing its lease: a live holder in a container would be robbed.
  it.skipIf(!canUnshare)(
    'waits out a live holder in another pid namespace past many leases',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const holder = holdInNamespace(target);
      await holder.reached('held');
      const err = await withLock(target, entered, { timeoutMs: 2_500, leaseMs: 1_500 }).catch(
        (e: unknown) => e,
      );
      expect((err as HostIOError).reason).toBe('lock-timeout');
      expect((err as HostIOError).holder?.pid).toBe(1);
    },
    20_000,
  );

  // Red if the holder stopped refreshing: with no /proc or namespace proof, waiters would break it.
  it('refreshes the lock file while holding it, visibly to any waiter', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const mtimes = await withLock(target, async () => {
      const seen = new Set<number>();
      for (let i = 0; i < 12; i++) {
        seen.add(statSync(lockPathOf(target)).mtimeMs);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return seen.size;
    });
    expect(mtimes).toBeGreaterThanOrEqual(2);
  });

  // Red if the timeout lost its details: the user is told neither which file nor which process.
  it('times out on another live process, naming the lock and its holder', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const holder = start(process.execPath, [child.script, jobArg(target, 'hold')]);
    const pid = await holder.reached('held');
    const err = await withLock(target, entered, { timeoutMs: 800, leaseMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HostIOError);
    const { reason, path, role, holder: named } = err as HostIOError;
    expect({ reason, path, role }).toEqual({
      reason: 'lock-timeout',
      path: lockPathOf(target),
      role: 'lock',
    });
    expect(named).toEqual({ pid, hostname: hostname(), acquiredAt: expect.any(String) });
  }, 20_000);

  // Red if this process's own holds were judged by the lease: a concurrent caller would break in.
  it('lets a concurrent caller of this process wait for the holder, past the lease', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const order: string[] = [];
    let inside = (): void => undefined;
    const firstIn = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const first = withLock(target, async () => {
      order.push('first in');
      inside();
      await new Promise((resolve) => setTimeout(resolve, 600));
      order.push('first out');
    });
    await firstIn;
    const second = withLock(target, async () => order.push('second in'), { leaseMs: 100 });
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});

describe('the lock refuses to wait for itself and can be inspected', () => {
  // Red before: a nested request for a held lock waited the whole timeout for itself.
  it('refuses a nested request for a lock this call chain holds at once, naming it', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const began = performance.now();
    const err = await withLock(target, () => withLock(target, entered, { timeoutMs: 5_000 })).catch(
      (e: unknown) => e,
    );
    expect(performance.now() - began).toBeLessThan(2_000);
    const { reason, path, role } = err as HostIOError;
    expect({ reason, path, role }).toEqual({
      reason: 'lock-held-by-this-process',
      path: lockPathOf(target),
      role: 'lock',
    });
    expect(strays(dir)).toEqual([]);
  });

  // Red if inspection misjudged: status would report a dead lock as held, or a live one as free.
  it('reports a free, a held and a stale lock without changing them', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const path = lockPathOf(target);
    expect(await inspectLock(target, nodeFs)).toEqual({ path, state: 'free', holder: undefined });
    const inside = await withLock(target, () => inspectLock(target, nodeFs));
    expect(inside).toMatchObject({ path, state: 'held', holder: { pid: process.pid } });
    const dead = spawnSync('true').pid as number;
    const record = { pid: dead, hostname: hostname(), acquiredAt: 'then', nonce: 'ab' };
    writeFileSync(path, JSON.stringify(record));
    expect(await inspectLock(target, nodeFs)).toEqual({
      path,
      state: 'stale',
      holder: { pid: dead, hostname: hostname(), acquiredAt: 'then' },
    });
    expect(strays(dir)).toEqual(['hooks.json.cursorhooks-lock']);
  });
});

describe('a /proc that belongs to another pid namespace', () => {
  // Red before: inside `unshare --pid --fork` without --mount-proc, /proc shows the host's
  // processes under the namespace's pids, so the waiter read another process's start time under
  // the live holder's pid and broke its lock at once.
  it.skipIf(!canUnshare)(
    'is not trusted: a live holder in the namespace keeps its lock past the lease',
    async () => {
      const dir = tempDir();
      const target = join(dir, 'hooks.json');
      const script = '"$NODE" "$SCRIPT" "$HOLD" & sleep 1; "$NODE" "$SCRIPT" "$WAIT"';
      const proc = spawn('unshare', ['--pid', '--fork', '--kill-child', 'sh', '-c', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {
          ...process.env,
          NODE: process.execPath,
          SCRIPT: child.script,
          HOLD: jobArg(target, 'hold'),
          WAIT: jobArg(target, 'wait'),
        },
      });
      started.push(proc);
      let out = '';
      proc.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      // Past the 3 s lease: a heartbeating holder is alive, so only a wrong proof lets the
      // waiter in.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(out.split('\n').filter((line) => line.endsWith(' held'))).toHaveLength(1);
      proc.kill('SIGKILL');
    },
    20_000,
  );
});
