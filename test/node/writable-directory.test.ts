// Which directory a write would be refused new files in, judged from mode bits before writing.
import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';
import { unwritableDirectory } from '../../src/node/status/writable-directory.js';
import type { FsSeam } from '../../src/node/write/fs-seam.js';

const USER = { uid: 1000, gids: new Set([1000, 27]) };

/** A seam whose lstat answers from `tree`; a path not in it does not exist. */
function seam(tree: Record<string, { uid: number; gid: number; mode: number; dir?: boolean }>) {
  const fs = mock<FsSeam>();
  fs.lstat.mockImplementation(async (path) => {
    const entry = tree[path];
    if (entry === undefined) throw Object.assign(new Error('absent'), { code: 'ENOENT' });
    return { ...entry, isDirectory: () => entry.dir !== false } as unknown as Stats;
  });
  return fs;
}

describe('unwritableDirectory', () => {
  it.each([
    ['owner without u+w', { uid: 1000, gid: 5, mode: 0o40577 }, '/d'],
    ['owner with u+w, group and other without', { uid: 1000, gid: 5, mode: 0o40700 }, undefined],
    ['group member without g+w, other with o+w', { uid: 0, gid: 27, mode: 0o40757 }, '/d'],
    ['group member with g+w', { uid: 0, gid: 27, mode: 0o40570 }, undefined],
    ['other without o+w, owner and group with', { uid: 0, gid: 0, mode: 0o40775 }, '/d'],
    ['other with o+w', { uid: 0, gid: 0, mode: 0o40702 }, undefined],
  ])('%s (red: the write bit of another class of user decides)', async (_, stats, expected) => {
    expect(await unwritableDirectory(['/d'], seam({ '/d': stats }), USER)).toBe(expected);
  });

  // Red: root, whom mode bits never stop, was sent to chmod a directory it can write.
  it('root may create files anywhere', async () => {
    const fs = seam({ '/d': { uid: 5, gid: 5, mode: 0o40555 } });
    expect(await unwritableDirectory(['/d'], fs, { uid: 0, gids: new Set([0]) })).toBeUndefined();
  });

  // Red: a missing ~/.cursor was judged writable although its parent refuses to hold it.
  it('judges a missing directory by the nearest existing parent it would be made in', async () => {
    const fs = seam({ '/home': { uid: 1000, gid: 1000, mode: 0o40555 } });
    expect(await unwritableDirectory(['/home/me/.cursor'], fs, USER)).toBe('/home');
  });

  // Red: only the first directory (the hook file's) was judged, not the ledger's.
  it('names the first of several directories that refuses', async () => {
    const fs = seam({
      '/a': { uid: 1000, gid: 1000, mode: 0o40755 },
      '/b': { uid: 1000, gid: 1000, mode: 0o40555 },
    });
    expect(await unwritableDirectory(['/a', '/b'], fs, USER)).toBe('/b');
  });

  // Red: a file where the directory should be, or an unjudgeable platform, was blamed.
  it('leaves a non-directory and a platform without credentials to the write itself', async () => {
    const fs = seam({ '/f': { uid: 1000, gid: 1000, mode: 0o100444, dir: false } });
    expect(await unwritableDirectory(['/f'], fs, USER)).toBeUndefined();
    const readOnly = seam({ '/d': { uid: 1000, gid: 1000, mode: 0o40555 } });
    expect(await unwritableDirectory(['/d'], readOnly, null)).toBeUndefined();
  });
});
