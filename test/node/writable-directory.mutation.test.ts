// The edges of judging a directory's write bit that writable-directory.test.ts leaves open: this
// process's own credentials (read from `process`, as they are by default), a platform without
// some of them, and a directory that cannot be examined or has no existing parent.
import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mock } from 'vitest-mock-extended';
import { unwritableDirectory } from '../../src/node/status/writable-directory.js';
import type { FsSeam } from '../../src/node/write/fs-seam.js';

type Ids = 'getuid' | 'getgid' | 'getgroups';

/** Runs `body` with `process`'s credential functions replaced (undefined: missing, as on Windows). */
async function asProcess<T>(
  ids: Record<Ids, (() => number | number[]) | undefined>,
  body: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(
    Object.keys(ids).map((key) => [key, Object.getOwnPropertyDescriptor(process, key)]),
  );
  for (const [key, value] of Object.entries(ids)) {
    Object.defineProperty(process, key, { value, configurable: true, writable: true });
  }
  try {
    return await body();
  } finally {
    for (const [key, descriptor] of Object.entries(saved)) {
      if (descriptor === undefined) delete (process as unknown as Record<string, unknown>)[key];
      else Object.defineProperty(process, key, descriptor);
    }
  }
}

const user = { getuid: () => 1000, getgid: () => 1000, getgroups: () => [27] };

/** A seam whose lstat answers from `tree`, or fails with the code given there. */
function seam(tree: Record<string, { uid: number; gid: number; mode: number } | string>) {
  const fs = mock<FsSeam>();
  fs.lstat.mockImplementation(async (path) => {
    const entry = tree[path] ?? 'ENOENT';
    if (typeof entry === 'string') throw Object.assign(new Error(entry), { code: entry });
    return { ...entry, isDirectory: () => true } as unknown as Stats;
  });
  return fs;
}

describe('unwritableDirectory with this process`s credentials', () => {
  it('judges by the process`s uid, gid and supplementary groups (red: the process is judged as another user, or its groups are ignored)', async () => {
    await asProcess(user, async () => {
      const owner = seam({ '/d': { uid: 1000, gid: 5, mode: 0o40577 } });
      expect(await unwritableDirectory(['/d'], owner)).toBe('/d');
      // Group classes decide before other: o+w must not save a group without g+w.
      const primary = seam({ '/d': { uid: 5, gid: 1000, mode: 0o40757 } });
      expect(await unwritableDirectory(['/d'], primary)).toBe('/d');
      const supplementary = seam({ '/d': { uid: 5, gid: 27, mode: 0o40757 } });
      expect(await unwritableDirectory(['/d'], supplementary)).toBe('/d');
      const writable = seam({ '/d': { uid: 5, gid: 27, mode: 0o40575 } });
      expect(await unwritableDirectory(['/d'], writable)).toBeUndefined();
    });
  });

  it('judges by the uid and gid alone where the platform has no supplementary groups (red: a missing getgroups throws)', async () => {
    await asProcess({ ...user, getgroups: undefined }, async () => {
      const fs = seam({ '/d': { uid: 5, gid: 1000, mode: 0o40757 } });
      expect(await unwritableDirectory(['/d'], fs)).toBe('/d');
    });
  });

  it.each(['getuid', 'getgid'] as const)(
    'leaves the judgement to the write where the platform has no %s (red: it throws, or judges without a uid or gid)',
    async (missing) => {
      await asProcess({ ...user, [missing]: undefined }, async () => {
        const fs = seam({ '/d': { uid: 1000, gid: 1000, mode: 0o40555 } });
        expect(await unwritableDirectory(['/d'], fs)).toBeUndefined();
      });
    },
  );
});

describe('unwritableDirectory on paths it cannot examine', () => {
  const USER = { uid: 1000, gids: new Set([1000]) };

  it('leaves a directory whose lstat fails otherwise than ENOENT to the write (red: its read-only parent is blamed instead)', async () => {
    const fs = seam({ '/d/x': 'EACCES', '/d': { uid: 1000, gid: 1000, mode: 0o40555 } });
    expect(await unwritableDirectory(['/d/x'], fs, USER)).toBeUndefined();
  });

  it('stops at the root when nothing on the path exists (red: the walk up never ends)', async () => {
    const fs = seam({});
    expect(await unwritableDirectory(['/a/b'], fs, USER)).toBeUndefined();
    expect(fs.lstat.mock.calls.map(([path]) => path)).toEqual(['/a/b', '/a', '/']);
  });
});
