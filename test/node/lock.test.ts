import { spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostIOError } from '../../src/node/errors.js';
import { withLock, withSweptLock } from '../../src/node/lock/lock.js';
import { MAY_BE_ALIVE_CEILING_MS } from '../../src/node/lock/process-identity.js';
import { lockPathOf, sideFileOf } from '../../src/node/side-files/leftovers.js';
import { trackSideFile } from '../../src/node/side-files/side-file-registry.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
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

  it('never breaks a lock from another host before its lease, or one it cannot read, or a remote holder is robbed', async () => {
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

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The real seam, for a breaker that has judged the lock stale: its first breaking call (a rename,
 * or a link to anything but the lock) waits for `before`, then signals `broke`; its next call
 * waits for `after`.
 */
function slowBreaker(
  lockPath: string,
  gates: { atBreak: () => void; before: Promise<void>; broke: () => void; after: Promise<void> },
): FsSeam {
  let phase: 'before' | 'after' | 'free' = 'before';
  const seam: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(nodeFs)) {
    seam[name] = async (...args: unknown[]) => {
      const call = () => (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      const breaking = name === 'rename' || (name === 'link' && args[1] !== lockPath);
      if (phase === 'before' && breaking) {
        phase = 'after';
        gates.atBreak();
        await gates.before;
        const result = await call();
        gates.broke();
        return result;
      }
      if (phase === 'after') {
        phase = 'free';
        await gates.after;
      }
      return call();
    };
  }
  return seam as unknown as FsSeam;
}

describe('breaking a stale lock', () => {
  // Red before the fix: the slow breaker moved the new holder's lock away and linked it back
  // after that holder had released, leaving a lock that names a live pid and that nobody holds.
  it('never moves a live lock, so a slow breaker cannot wedge every later run', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const lockPath = lockPathOf(target);
    writeFileSync(lockPath, lockRecord(deadPid()));
    const atBreak = gate();
    const otherHolds = gate();
    const broke = gate();
    const otherReleased = gate();
    const fs = slowBreaker(lockPath, {
      atBreak: atBreak.open,
      before: otherHolds.opened,
      broke: broke.open,
      after: otherReleased.opened,
    });
    const slow = withLock(target, async () => 'entered', { fs, timeoutMs: 300 }).catch(
      (err: HostIOError) => err.reason,
    );
    await atBreak.opened;
    const other = await withLock(target, async () => {
      otherHolds.open();
      await broke.opened;
      return 'entered';
    });
    otherReleased.open();
    expect([other, await slow]).toEqual(['entered', 'entered']);
    expect(strays(dir)).toEqual([]);
    expect(await withLock(target, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
  });

  it('recovers a break file whose breaker died, and clears it, or one crash mid-break blocks forever', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    // Two breakers died in a row: the second while breaking the first one's break file.
    for (const suffix of ['', '.break', '.break.break']) {
      writeFileSync(`${lockPathOf(target)}${suffix}`, lockRecord(deadPid()));
    }
    expect(await withLock(target, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
    expect(strays(dir)).toEqual([]);
  });

  // Red before: the clean-up stopped at the first missing level, so a `.break.break` left after
  // its `.break` was cleared stayed beside the file forever.
  it('clears a deeper break file left alone, or it stays forever', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    writeFileSync(`${lockPathOf(target)}.break.break`, lockRecord(deadPid()));
    expect(await withLock(target, async () => 'entered', { timeoutMs: 300 })).toBe('entered');
    expect(strays(dir)).toEqual([]);
  });

  it('leaves a live breaker its break file, or two breakers could both remove the lock', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    writeFileSync(lockPathOf(target), lockRecord(deadPid()));
    writeFileSync(`${lockPathOf(target)}.break`, lockRecord(process.ppid));
    const err = await withLock(target, async () => 'entered', { timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect((err as HostIOError).reason).toBe('lock-timeout');
    expect(strays(dir).sort()).toEqual([
      'hooks.json.cursorhooks-lock',
      'hooks.json.cursorhooks-lock.break',
    ]);
  });
});

describe('leftover side files', () => {
  /** Sweeps `target`'s side files the way every writer does: under its lock. */
  const sweep = (target: string) => withSweptLock(target, async () => undefined);

  it("removes every temp file this process does not track, and staging files of dead waiters only (red: a live waiter's staging file vanishes, or garbage stays)", async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const dead = deadPid();
    const names = {
      deadTemp: `hooks.json.cursorhooks-${dead}-0123456789ab.tmp`,
      // Under the lock a temp file is garbage whoever made it: only a lock holder writes one.
      liveTemp: `hooks.json.cursorhooks-${process.ppid}-0123456789ab.tmp`,
      deadStaging: `hooks.json.cursorhooks-lock-${dead}-0123456789ab.tmp`,
      liveStaging: `hooks.json.cursorhooks-lock-${process.ppid}-0123456789ab.tmp`,
      other: `other.json.cursorhooks-${dead}-0123456789ab.tmp`,
      backup: 'hooks.json.bak',
    };
    writeFileSync(join(dir, names.deadStaging), lockRecord(dead));
    writeFileSync(join(dir, names.liveStaging), lockRecord(process.ppid));
    for (const name of [names.deadTemp, names.liveTemp, names.other, names.backup]) {
      writeFileSync(join(dir, name), '');
    }
    await sweep(target);
    expect(strays(dir).sort()).toEqual([names.liveStaging, names.other, names.backup].sort());
  });

  // Red before: a file stamped with our own pid was never removed, so in a container (which
  // starts the CLI at the same pid every run) a killed run's temp file stayed forever.
  it('removes those stamped with our own pid that this process did not make, and keeps its own', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const names = [
      `hooks.json.cursorhooks-${process.pid}-0123456789ab.tmp`,
      `hooks.json.cursorhooks-${process.pid}-ba9876543210.tmp`,
    ];
    for (const name of names) writeFileSync(join(dir, name), '');
    const untrack = trackSideFile(join(dir, names[1] as string));
    await sweep(target);
    untrack();
    expect(strays(dir)).toEqual([names[1]]);
  });

  it('removes an unreadable staging file whose pid is gone, and one of a live pid only past the ceiling (red: a waiter killed between creating and writing its record leaves it, or one mid-write loses it)', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const dead = join(dir, `hooks.json.cursorhooks-lock-${deadPid()}-0123456789ab.tmp`);
    const staging = join(dir, `hooks.json.cursorhooks-lock-${process.ppid}-0123456789ab.tmp`);
    writeFileSync(dead, '');
    writeFileSync(staging, '');
    await sweep(target);
    expect([existsSync(dead), existsSync(staging)]).toEqual([false, true]);
    const old = new Date(Date.now() - MAY_BE_ALIVE_CEILING_MS - 60_000);
    utimesSync(staging, old, old);
    await sweep(target);
    expect(existsSync(staging)).toBe(false);
  });

  it('recognises only its own side-file names, or a foreign file could be deleted', () => {
    expect(sideFileOf('hooks.json', 'hooks.json.cursorhooks-12-0123456789ab.tmp')).toEqual({
      kind: 'tmp',
      pid: 12,
    });
    expect(sideFileOf('hooks.json', 'hooks.json.cursorhooks-lock-12-0123456789ab.tmp')).toEqual({
      kind: 'lock-tmp',
      pid: 12,
    });
    expect(sideFileOf('hooks.json', 'hooks.json.cursorhooks-lock')).toBeUndefined();
    expect(sideFileOf('hooks.json', 'hooks.json.cursorhooks-12-xyz.tmp')).toBeUndefined();
    expect(sideFileOf('hooks.json', 'hooks.jsonX.cursorhooks-12-0123456789ab.tmp')).toBeUndefined();
  });
});
