import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostIOError } from '../../src/node/errors.js';
import { nodeFs } from '../../src/node/fs-seam.js';
import { lockPathOf, removeLeftovers, sideFilePid } from '../../src/node/leftovers.js';
import { withLock } from '../../src/node/lock.js';
import { strays, tempDir } from './support.js';

/** The pid of a process that has exited: provably dead on this host. */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

function lockRecord(pid: number, host = hostname()): string {
  return JSON.stringify({ pid, hostname: host, acquiredAt: '2026-01-01T00:00:00Z', nonce: 'ab' });
}

/** Runs `count` bodies under one lock at once; returns the most that ever ran together. */
async function maxOverlap(target: string, count: number): Promise<number> {
  let active = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      withLock(target, async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
      }),
    ),
  );
  return most;
}

describe('the lock beside the file', () => {
  it('lets one holder in at a time and leaves no file behind, or writers interleave', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    expect(await maxOverlap(target, 4)).toBe(1);
    expect(strays(dir)).toEqual([]);
  });

  it('is released when the body throws, or one failure blocks every later run', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    await expect(withLock(target, () => Promise.reject(new Error('body')))).rejects.toThrow('body');
    expect(existsSync(lockPathOf(target))).toBe(false);
  });

  it('recovers a lock whose owner died, with racing recoverers one at a time, or a crash blocks forever', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    writeFileSync(lockPathOf(target), lockRecord(deadPid()));
    expect(await maxOverlap(target, 3)).toBe(1);
    expect(strays(dir)).toEqual([]);
  });

  it('waits out a live holder then times out, or a live lock would be broken', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    writeFileSync(lockPathOf(target), lockRecord(process.ppid));
    const err = await withLock(target, async () => 'entered', { timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HostIOError);
    expect((err as HostIOError).reason).toBe('lock-timeout');
    expect(strays(dir)).toEqual(['hooks.json.cursorhooks-lock']);
  });

  it('never breaks a lock from another host or one it cannot read, or a remote holder is robbed', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    for (const record of [lockRecord(deadPid(), 'another-host'), 'not a lock']) {
      writeFileSync(lockPathOf(target), record);
      await expect(withLock(target, async () => 'entered', { timeoutMs: 30 })).rejects.toThrow(
        HostIOError,
      );
    }
  });
});

describe('leftover side files', () => {
  it('removes those of dead processes only, or a live writer loses its temp file', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const dead = deadPid();
    const names = [
      `hooks.json.cursorhooks-${dead}-0123456789ab.tmp`,
      `hooks.json.cursorhooks-lock-${dead}-0123456789ab.tmp`,
      `hooks.json.cursorhooks-lock-${dead}-0123456789ab.stale`,
      `hooks.json.cursorhooks-${process.ppid}-0123456789ab.tmp`,
      `other.json.cursorhooks-${dead}-0123456789ab.tmp`,
      'hooks.json.bak',
    ];
    for (const name of names) writeFileSync(join(dir, name), '');
    await removeLeftovers(target, nodeFs);
    expect(strays(dir).sort()).toEqual(names.slice(3).sort());
  });

  it('recognises only its own side-file names, or a foreign file could be deleted', () => {
    expect(sideFilePid('hooks.json', 'hooks.json.cursorhooks-12-0123456789ab.tmp')).toBe(12);
    expect(sideFilePid('hooks.json', 'hooks.json.cursorhooks-lock')).toBeUndefined();
    expect(sideFilePid('hooks.json', 'hooks.json.cursorhooks-12-xyz.tmp')).toBeUndefined();
    expect(
      sideFilePid('hooks.json', 'hooks.jsonX.cursorhooks-12-0123456789ab.tmp'),
    ).toBeUndefined();
  });
});
