// An interrupted holder whose lock name was replaced meanwhile (a FIFO, a link) still dies by
// the signal at once, and leaves the planted name alone.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import type { HoldLockJob } from './child/hold-lock.js';
import { buildChild } from './child/spawn.js';
import { tempDir } from './support.js';

let child: { script: string; dispose: () => void };
beforeAll(async () => {
  child = await buildChild('hold-lock');
}, 60_000);
afterAll(() => child.dispose());

/** Runs a holder, swaps its lock for `plant`, then SIGTERMs it; SIGKILL after 10 s. */
async function interruptedAfter(
  plant: (lock: string, dir: string, record: Buffer) => void,
): Promise<{ signal: NodeJS.Signals | null; killed: boolean; dir: string; lock: string }> {
  const dir = tempDir();
  const target = join(dir, 'hooks.json');
  const lock = lockPathOf(target);
  const job: HoldLockJob = { target, mode: 'hold', interrupt: true };
  const proc = spawn(process.execPath, [child.script, JSON.stringify(job)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) =>
    proc.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('held')) resolve();
    }),
  );
  const record = readFileSync(lock);
  rmSync(lock);
  plant(lock, dir, record);
  let killed = false;
  const bound = setTimeout(() => {
    killed = true;
    proc.kill('SIGKILL');
  }, 10_000);
  proc.kill('SIGTERM');
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    proc.on('exit', (_, sig) => resolve(sig)),
  );
  clearTimeout(bound);
  return { signal, killed, dir, lock };
}

describe('an interrupt when the held lock name holds something else now', () => {
  // Red before: the handler read the name with readFileSync, which blocks on a FIFO with no
  // writer: the process ignored SIGTERM until killed.
  it('dies by SIGTERM and leaves a FIFO planted at the lock name', async () => {
    const ended = await interruptedAfter((lock) => spawnSync('mkfifo', [lock]));
    expect(ended.killed, 'the holder hung in its signal handler').toBe(false);
    expect(ended.signal).toBe('SIGTERM');
    expect(lstatSync(ended.lock).isFIFO()).toBe(true);
  }, 30_000);

  // Red if the handler followed a link to a file holding our record and removed the link.
  it('leaves a link to a copy of its own record', async () => {
    const ended = await interruptedAfter((lock, dir, record) => {
      const copy = join(dir, 'copy');
      writeFileSync(copy, record);
      symlinkSync(copy, lock);
    });
    expect(ended.signal).toBe('SIGTERM');
    expect(lstatSync(ended.lock).isSymbolicLink()).toBe(true);
  }, 30_000);
});
