// A lock or break name holding anything but a cursorhooks lock record (a link, a directory, a
// FIFO, an empty or foreign file) is refused at once with lock-foreign, never followed, waited
// for, spun on or removed.
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acquireLock,
  inspectLock,
  readOwner,
  releaseLock,
  withLock,
} from '../../src/node/lock/lock.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { blockingFs } from '../../src/node/write/fs-seam.js';
import { hostFailure, strays, tempDir } from './support.js';

const deadRecord = (): string =>
  JSON.stringify({
    pid: spawnSync('true').pid,
    hostname: hostname(),
    acquiredAt: '2026-01-01T00:00:00Z',
    nonce: 'dead',
  });

/** Each thing a name can hold that no cursorhooks process wrote; `make` plants it at `path`. */
const FOREIGN: ReadonlyArray<readonly [string, (path: string, dir: string) => void]> = [
  ['a dangling symlink', (path) => symlinkSync('/nonexistent/x', path)],
  [
    'a symlink to a valid record',
    (path, dir) => {
      const elsewhere = join(dir, 'elsewhere');
      writeFileSync(elsewhere, deadRecord());
      symlinkSync(elsewhere, path);
    },
  ],
  ['a directory', (path) => mkdirSync(path)],
  ['a FIFO', (path) => spawnSync('mkfifo', [path])],
  ['an empty file', (path) => writeFileSync(path, '')],
  ['a file that is not JSON', (path) => writeFileSync(path, 'not a lock')],
  ['an oversized record', (path) => writeFileSync(path, `${deadRecord()}${' '.repeat(5000)}`)],
];

/** What `path` is now, to show it was left exactly as planted. */
function kindOf(path: string): string {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return `link ${readlinkSync(path)}`;
  return stats.isDirectory() ? 'dir' : stats.isFIFO() ? 'fifo' : `file ${stats.size}`;
}

describe('a lock name that is not a lock record', () => {
  // Red before: a dangling link spun forever (no sleep, no deadline, no signal handled); a
  // directory or FIFO failed file-not-regular; an empty or foreign file waited the whole
  // timeout; a link to a record was followed and its target judged.
  it.each(FOREIGN)(
    'is refused lock-foreign at once, naming the lock, and left in place: %s',
    async (_, plant) => {
      const dir = tempDir();
      const file = join(dir, 'hooks.json');
      const lock = lockPathOf(file);
      plant(lock, dir);
      const before = kindOf(lock);
      // A minute: only a refusal, never the timeout, ends this within the test's bound.
      const err = await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 60_000 }));
      expect(err).toMatchObject({ reason: 'lock-foreign', path: lock, role: 'lock' });
      expect(kindOf(lock)).toBe(before);
      expect(strays(dir, 'hooks.json.cursorhooks-lock', 'elsewhere')).toEqual([]);
      expect(await readOwner(lock, blockingFs)).toBe('foreign');
    },
    15_000,
  );

  // Red before: status showed no lock at all for a dangling link.
  it('is shown by inspectLock as held with no holder, a dangling link included', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    symlinkSync('/nonexistent/x', lockPathOf(file));
    expect(await inspectLock(file, blockingFs)).toEqual({
      path: lockPathOf(file),
      state: 'held',
      holder: undefined,
    });
  });
});

describe('a break name that is not a lock record', () => {
  // Red before: readOwner followed the planted break name, found nothing or garbage, and the
  // waiter waited out the timeout on a stale lock it could never break.
  it.each(FOREIGN)(
    'is refused lock-foreign, naming the break name, and left in place: %s',
    async (_, plant) => {
      const dir = tempDir();
      const file = join(dir, 'hooks.json');
      const lock = lockPathOf(file);
      writeFileSync(lock, deadRecord());
      const breakName = `${lock}.break`;
      plant(breakName, dir);
      const before = kindOf(breakName);
      const err = await hostFailure(withLock(file, async () => 'entered', { timeoutMs: 60_000 }));
      expect(err).toMatchObject({ reason: 'lock-foreign', path: breakName, role: 'lock' });
      expect(kindOf(breakName)).toBe(before);
      expect(
        strays(
          dir,
          'hooks.json.cursorhooks-lock',
          'hooks.json.cursorhooks-lock.break',
          'elsewhere',
        ),
      ).toEqual([]);
    },
    15_000,
  );
});

describe('the lease beat', () => {
  // Red before: the lease was refreshed from a timer only, which back-to-back synchronous calls
  // starve, so a busy CLI holder looked dead to a lease-judging waiter after 3 s.
  it('refreshes a held lock during synchronous seam work longer than the lease', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    const lock = lockPathOf(file);
    const owner = await acquireLock(file, blockingFs, 1_000);
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(lock, old, old);
    // Never yields to the event loop: each call's promise is settled when it returns.
    const end = performance.now() + 3_500;
    while (performance.now() < end) await blockingFs.lstat(dir);
    const fresh = statSync(lock).mtimeMs;
    await releaseLock(file, owner, blockingFs);
    expect(fresh).toBeGreaterThan(Date.now() - 2_000);
  }, 20_000);

  // Red if the seam's beat touched whatever the name holds: a holder resumed after losing its
  // lock would keep its breaker's lock looking alive, or touch a link's target.
  it('leaves a lock that no longer holds our nonce, and a link, untouched', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    const lock = lockPathOf(file);
    const owner = await acquireLock(file, blockingFs, 1_000);
    const old = new Date('2020-01-01T00:00:00Z');
    writeFileSync(lock, deadRecord());
    utimesSync(lock, old, old);
    let end = performance.now() + 1_200;
    while (performance.now() < end) await blockingFs.lstat(dir);
    expect(statSync(lock).mtimeMs).toBe(old.getTime());
    const target = join(dir, 'target');
    writeFileSync(target, JSON.stringify(owner));
    utimesSync(target, old, old);
    unlinkSync(lock);
    symlinkSync(target, lock);
    end = performance.now() + 1_200;
    while (performance.now() < end) await blockingFs.lstat(dir);
    expect(statSync(target).mtimeMs).toBe(old.getTime());
    await releaseLock(file, owner, blockingFs);
  }, 20_000);
});
