// The heartbeat of held locks (src/node/lock/lease-beat.ts), driven directly: when a seam call
// beats, what a beat refuses to touch, and the one timer's life. The interval is faked so it
// ticks only when a test says; the monotonic clock is pinned the same way.
import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_LOCK_RECORD_BYTES } from '../../src/limits.js';
import { beatHeldLocks, REFRESH_MS, startBeat } from '../../src/node/lock/lease-beat.js';
import { blocking, type Runner } from '../../src/node/write/fs-calls.js';
import { tempDir } from './support.js';

const OLD = new Date('2020-01-01T00:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A lock file holding `text`, its mtime set long ago. */
function lockFile(text: string): string {
  const path = join(tempDir(), 'hooks.json.cursorhooks-lock');
  writeFileSync(path, text);
  utimesSync(path, OLD, OLD);
  return path;
}

const refreshed = (path: string) => statSync(path).mtimeMs > OLD.getTime();

/** Lets a beat's promise chain (its calls resolved at once by `blocking`) run to its end. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a beat from the seam`s calls', () => {
  it('refreshes a lock once REFRESH_MS passed since its last beat, not before (red: every call beats, or none does)', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const path = lockFile('{"nonce":"ours"}\n');
    const stop = startBeat(path, 'ours');
    try {
      now.mockReturnValue(1_000 + REFRESH_MS - 1);
      beatHeldLocks(blocking);
      await settle();
      expect(refreshed(path)).toBe(false);
      now.mockReturnValue(1_000 + REFRESH_MS);
      beatHeldLocks(blocking);
      await settle();
      expect(refreshed(path)).toBe(true);
      // That beat was the last one: the next is due REFRESH_MS after it.
      utimesSync(path, OLD, OLD);
      now.mockReturnValue(1_000 + 2 * REFRESH_MS - 1);
      beatHeldLocks(blocking);
      await settle();
      expect(refreshed(path)).toBe(false);
    } finally {
      stop();
    }
  });

  it('touches only a regular file of at most a record`s size that holds our nonce (red: a lock swapped for a directory, a huge file or another`s record is kept looking alive)', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const full = lockFile(`ours${' '.repeat(MAX_LOCK_RECORD_BYTES - 4)}`);
    const over = lockFile(`ours${' '.repeat(MAX_LOCK_RECORD_BYTES - 3)}`);
    const theirs = lockFile('{"nonce":"theirs"}\n');
    const dir = join(tempDir(), 'lock-dir');
    mkdirSync(dir);
    utimesSync(dir, OLD, OLD);
    const stops = [full, over, theirs, dir].map((path) => startBeat(path, 'ours'));
    try {
      now.mockReturnValue(1_000 + REFRESH_MS);
      beatHeldLocks(blocking);
      await settle();
      expect([full, over, theirs, dir].map(refreshed)).toEqual([true, false, false, false]);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

describe('a beat`s file handle', () => {
  it('is closed after every beat, touching or not (red: each beat leaks a descriptor)', async () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const calls: string[] = [];
    const recording: Runner = (withCallback, synchronous, ...args) => {
      calls.push(synchronous.name);
      return blocking(withCallback, synchronous, ...args);
    };
    const ours = lockFile('{"nonce":"ours"}\n');
    const theirs = lockFile('{"nonce":"theirs"}\n');
    const stops = [ours, theirs].map((path) => startBeat(path, 'ours'));
    try {
      now.mockReturnValue(1_000 + REFRESH_MS);
      beatHeldLocks(recording);
      await settle();
      expect(calls.filter((name) => name === 'openSync')).toHaveLength(2);
      expect(calls.filter((name) => name === 'closeSync')).toHaveLength(2);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

describe('the timer', () => {
  it('beats every held lock at each tick, whenever it last beat (red: a lock held through slow calls goes stale)', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
    const path = lockFile('{"nonce":"ours"}\n');
    const stop = startBeat(path, 'ours');
    try {
      vi.advanceTimersByTime(REFRESH_MS);
      await vi.waitFor(() => expect(refreshed(path)).toBe(true), { timeout: 10_000 });
    } finally {
      stop();
    }
  });

  it('runs one timer while any lock is held and stops it with the last (red: a timer per lock, or one that outlives every lock)', () => {
    const first = startBeat(lockFile('a'), 'a');
    const second = startBeat(lockFile('b'), 'b');
    expect(vi.getTimerCount()).toBe(1);
    first();
    expect(vi.getTimerCount()).toBe(1);
    second();
    expect(vi.getTimerCount()).toBe(0);
  });
});
