// A file system without hard links (FAT, exFAT, some network mounts) gets one clear refusal,
// lock-no-hard-links, at the first lock; and Windows' transient refusals are retried by one
// policy (the seam's), never by the lock around it again.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, releaseLock, withLock } from '../../src/node/lock/lock.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { windowsRetrying } from '../../src/node/write/windows-retry.js';
import { errno, hostFailure, strays, tempDir, wrapSeam } from './support.js';

/** A lock taken where every link(2) fails `code`: the failure, and how many links were tried. */
async function lockWhereLinkFails(code: string) {
  const dir = tempDir();
  let links = 0;
  const fs = wrapSeam((call) => {
    if (call === 'link') {
      links++;
      throw errno(code);
    }
  });
  const err = await hostFailure(withLock(join(dir, 'hooks.json'), async () => 'entered', { fs }));
  return { dir, err, links };
}

describe('a directory whose file system has no hard links', () => {
  // Red before: every link was retried six times over 630 ms and the write failed
  // permission-denied, as if the user lacked a permission.
  // EISDIR: what a FAT volume answers on Windows (ERROR_INVALID_FUNCTION, as libuv maps it).
  it.each(['EPERM', 'EISDIR'])(
    'is refused lock-no-hard-links once, naming the directory, when link says %s to any name',
    async (code) => {
      const { dir, err, links } = await lockWhereLinkFails(code);
      expect(err).toMatchObject({
        reason: 'lock-no-hard-links',
        code,
        path: dir,
        role: 'directory',
      });
      // The lock name, then one fresh name to tell a file system without links from a busy name.
      expect(links).toBe(2);
      expect(strays(dir)).toEqual([]);
    },
  );

  it.each(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])(
    'is refused at the first link failing %s (red: reported as io-failure)',
    async (code) => {
      const { dir, err, links } = await lockWhereLinkFails(code);
      expect(err).toMatchObject({ reason: 'lock-no-hard-links', code, path: dir });
      expect(links).toBe(1);
      expect(strays(dir)).toEqual([]);
    },
  );

  // Red if any EPERM were taken for missing hard links: a lock name Windows still deletes
  // would be misreported as a file-system limit.
  it('reports EPERM on the lock name alone as permission-denied, not as missing hard links', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    const fs = wrapSeam((call, _, args) => {
      if (call === 'link' && args[1] === lockPathOf(file)) throw errno('EPERM');
    });
    const err = await hostFailure(withLock(file, async () => 'entered', { fs }));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EPERM' });
    expect(strays(dir)).toEqual([]);
  });
});

/** A FAT image mounted through FUSE (the kernel here may lack vfat); undefined, with why, if not. */
function mountFat(): { dir: string; unmount: () => void } | string {
  for (const tool of ['mkfs.vfat', 'fusefat', 'fusermount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      return `${tool} missing (apt-get install dosfstools fusefat)`;
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'cursorhooks-fat-'));
  const image = join(work, 'fat.img');
  const dir = join(work, 'mnt');
  mkdirSync(dir);
  writeFileSync(image, Buffer.alloc(0));
  execFileSync('truncate', ['-s', '16M', image]);
  execFileSync('mkfs.vfat', [image], { stdio: 'ignore' });
  const mounted = spawnSync('fusefat', ['-o', 'rw+', image, dir], { stdio: 'ignore' });
  if (mounted.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    return `fusefat could not mount the image (status ${mounted.status})`;
  }
  return {
    dir,
    unmount: () => {
      spawnSync('fusermount', ['-u', dir]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

describe('a real FAT file system', () => {
  let fat: ReturnType<typeof mountFat> = 'not mounted';
  beforeAll(() => {
    fat = mountFat();
    if (typeof fat === 'string') console.warn(`skipped: FAT image: ${fat}`);
  });
  afterAll(() => {
    if (typeof fat !== 'string') fat.unmount();
  });

  // Red before: permission-denied after 630 ms of retries, for a write that could never work.
  it('refuses lock-no-hard-links and leaves nothing in the directory', async (context) => {
    if (typeof fat === 'string') return context.skip();
    const file = join(fat.dir, 'hooks.json');
    const err = await hostFailure(withLock(file, async () => 'entered'));
    expect(err).toMatchObject({ reason: 'lock-no-hard-links', path: dirname(file) });
    expect(readdirSync(fat.dir)).toEqual([]);
  });
});

describe('Windows transient refusals on the lock name', () => {
  // Red before: the lock's own retry wrapped the seam's, seven rounds of the seam's whole bound
  // (about 15 s on a lasting EPERM).
  it('are retried by the seam alone: a lasting EPERM on the lock`s unlink costs one bound', async () => {
    const dir = tempDir();
    const file = join(dir, 'hooks.json');
    const lock = lockPathOf(file);
    const owner = await acquireLock(
      file,
      wrapSeam(() => undefined),
      1_000,
    );
    let unlinks = 0;
    const fs = windowsRetrying(
      wrapSeam((call, path) => {
        if (call === 'unlink' && path === lock) {
          unlinks++;
          throw errno('EPERM');
        }
      }),
      { budgetMs: 100 },
    );
    const err = await hostFailure(releaseLock(file, owner, fs));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EPERM' });
    // One bound of 100 ms is about five tries (0, 10, 20, 30, 40 ms apart); nested, 35 or more.
    expect(unlinks).toBeLessThan(15);
    rmSync(lock);
  });
});
