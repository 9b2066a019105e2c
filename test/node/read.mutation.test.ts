// The reader's edges that a real file system rarely shows, through the fs seam: long and looping
// symlink chains, failures while resolving, non-regular opens, a file that grew since its fstat.
import type { Stats } from 'node:fs';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/limits.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot, resolveTarget } from '../../src/node/write/read.js';
import { errno, failing, hostFailure, tempDir, wrapSeam } from './support.js';

const symlinkStats = { isSymbolicLink: () => true } as Stats;

/**
 * An imaginary tree: only `/x` exists; `/x/l0` … `/x/l<count-1>` are symlinks, each to the next
 * (`loop`: the last one back to the first), and nothing else is there.
 */
function chainSeam(count: number, loop = false): FsSeam {
  const index = (path: string) => Number(path.slice('/x/l'.length));
  const isLink = (path: string) => path.startsWith('/x/l') && index(path) < count;
  return {
    ...nodeFs,
    realpath: async (path) => {
      if (path === '/x' || path === '/') return path;
      throw errno('ENOENT');
    },
    lstat: async (path) => {
      if (isLink(path)) return symlinkStats;
      throw errno('ENOENT');
    },
    readlink: async (path) => `/x/l${loop && index(path) === count - 1 ? 0 : index(path) + 1}`,
  };
}

describe('resolving through symlinks', () => {
  it('follows a chain of 40 dangling links to its missing end (red: a chain Linux follows is refused)', async () => {
    expect(await resolveTarget('/x/l0', chainSeam(40))).toBe('/x/l40');
  });

  it('refuses a 41st link as ELOOP (red: a longer chain than Linux follows is accepted)', async () => {
    const err = await hostFailure(resolveTarget('/x/l0', chainSeam(41)));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'ELOOP' });
  });

  it('refuses a dangling loop as ELOOP (red: resolving a loop never ends)', async () => {
    const err = await hostFailure(resolveTarget('/x/l0', chainSeam(2, true)));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'ELOOP' });
  });

  it('stops at the root when a broken seam resolves nothing (red: resolving recurses forever)', async () => {
    const nothing: FsSeam = {
      ...nodeFs,
      realpath: async () => Promise.reject(errno('ENOENT')),
      lstat: async () => Promise.reject(errno('ENOENT')),
    };
    expect(await resolveTarget('/a/b', nothing)).toBe('/a/b');
  });

  it('resolves `..` after a symlinked directory physically, as the kernel does (red: the lexical path is a file Cursor never reads)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'b', 'real'), { recursive: true });
    mkdirSync(join(dir, 'a', 'b', 'target'));
    writeFileSync(join(dir, 'a', 'b', 'target', 'hooks.json'), '{}');
    symlinkSync(join(dir, 'a', 'b', 'real'), join(dir, 'alias'));
    symlinkSync('alias/../target/hooks.json', join(dir, 'hooks.json'));
    expect(await resolveTarget(join(dir, 'hooks.json'))).toBe(
      join(dir, 'a', 'b', 'target', 'hooks.json'),
    );
  });

  it("resolves a dangling link's `..` after a symlinked directory physically too, so the file is created where the link leads (red: the kit writes a file the link never reaches)", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'b', 'real'), { recursive: true });
    symlinkSync(join(dir, 'a', 'b', 'real'), join(dir, 'alias'));
    symlinkSync('alias/../target/hooks.json', join(dir, 'hooks.json'));
    expect(await resolveTarget(join(dir, 'hooks.json'))).toBe(
      join(dir, 'a', 'b', 'target', 'hooks.json'),
    );
    // A path given with `..` after a link is followed the same way.
    expect(await resolveTarget(`${join(dir, 'alias')}/../target/new.json`)).toBe(
      join(dir, 'a', 'b', 'target', 'new.json'),
    );
  });

  it('follows a dangling link to a directory in the middle of the path (red: a file under the link is created beside it, where the link does not lead)', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'missing'), join(dir, 'alias'));
    expect(await resolveTarget(join(dir, 'alias', 'hooks.json'))).toBe(
      join(dir, 'missing', 'hooks.json'),
    );
  });

  it('reports an unreadable ancestor as permission-denied (red: an EACCES path resolves as missing and is created elsewhere)', async () => {
    const path = join(tempDir(), 'hooks.json');
    const err = await hostFailure(resolveTarget(path, failing('realpath', 'EACCES')));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('reports a failed lstat of a missing name as its cause (red: the failure is taken for no link)', async () => {
    const path = join(tempDir(), 'hooks.json');
    const err = await hostFailure(resolveTarget(path, failing('lstat', 'EACCES')));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });
});

describe('opening and reading', () => {
  it.each(['ENXIO', 'EISDIR'])(
    'refuses an open failing %s as not regular, with the code (red: a socket or directory reads as an I/O failure)',
    async (code) => {
      const path = join(tempDir(), 'hooks.json');
      writeFileSync(path, '{}');
      const err = await hostFailure(readFileSnapshot(path, failing('open', code)));
      expect(err).toMatchObject({ reason: 'file-not-regular', code });
    },
  );

  it('closes the file when fstat fails and reports the cause (red: a handle leaks or the code is lost)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '{}');
    let opens = 0;
    let closes = 0;
    const fs = wrapSeam((call) => {
      if (call === 'open') opens++;
      if (call === 'close') closes++;
      if (call === 'fstat') throw errno('EIO');
    });
    const err = await hostFailure(readFileSnapshot(path, fs));
    expect(err).toMatchObject({ reason: 'io-failure', code: 'EIO' });
    expect([opens, closes]).toEqual([1, 1]);
  });

  it('closes the file after a read (red: every read leaks a handle)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '{}');
    let closes = 0;
    await readFileSnapshot(
      path,
      wrapSeam((call) => {
        if (call === 'close') closes++;
      }),
    );
    expect(closes).toBe(1);
  });

  it('counts hard links (red: a hard-linked file is replaced and the other name keeps the old bytes)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'hooks.json'), '{}');
    linkSync(join(dir, 'hooks.json'), join(dir, 'other.json'));
    expect((await readFileSnapshot(join(dir, 'hooks.json'))).links).toBe(2);
  });

  /** The real seam with fstat reporting `size` bytes, as if the file grew after it. */
  const staleSize = (size: number): FsSeam => ({
    ...nodeFs,
    fstat: async (handle) => Object.assign(await nodeFs.fstat(handle), { size }),
  });

  it('reads all of a file that grew since its fstat (red: the bytes past the stale size are lost)', async () => {
    const path = join(tempDir(), 'hooks.json');
    const content = `{"hooks": "${'x'.repeat(5000)}"}`;
    writeFileSync(path, content);
    const snapshot = await readFileSnapshot(path, staleSize(3));
    expect(Buffer.from(snapshot.bytes).toString('utf8')).toBe(content);
  });

  it('reads one byte past the limit of a file that grew past it (red: growth makes reading unbounded)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, Buffer.alloc(MAX_DOCUMENT_BYTES + 1000, 0x20));
    expect((await readFileSnapshot(path, staleSize(10))).bytes.length).toBe(MAX_DOCUMENT_BYTES + 1);
  });

  it('reads one byte past the limit of a file that grew from just under it (red: it is read as a whole document of exactly the limit)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, Buffer.alloc(MAX_DOCUMENT_BYTES + 1000, 0x20));
    const snapshot = await readFileSnapshot(path, staleSize(MAX_DOCUMENT_BYTES - 1));
    expect(snapshot.bytes.length).toBe(MAX_DOCUMENT_BYTES + 1);
  });

  it('leaves role and path to the caller when given no role (red: the error is stamped without a role and the caller cannot name the file)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '{}');
    const err = await hostFailure(readFileSnapshot(path, failing('open', 'EACCES')));
    expect(err.path).toBeUndefined();
    expect(err.role).toBeUndefined();
  });

  it('waits 100 ms by default before reading an empty file again (red: an editor save 30 ms into the wait is planned on as empty)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '');
    // Set before the read starts, so it fires before any wait of 100 ms ends.
    const saving = new Promise<void>((done) =>
      setTimeout(() => {
        writeFileSync(path, '{"version":1}');
        done();
      }, 30),
    );
    const snapshot = await readFileSnapshot(path);
    await saving;
    expect(Buffer.from(snapshot.bytes).toString('utf8')).toBe('{"version":1}');
  });

  it('reads an empty file once when the settle delay is 0 (red: 0 still waits and reads twice)', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '');
    let opens = 0;
    const fs = wrapSeam((call) => {
      if (call === 'open') opens++;
    });
    await readFileSnapshot(path, fs, { emptySettleMs: 0 });
    expect(opens).toBe(1);
  });
});

describe('resolving a missing path name by name', () => {
  /** Only the given directories exist, none is a link; every realpath asked is recorded. */
  function treeSeam(dirs: readonly string[], fail: Record<string, string> = {}) {
    const asked: string[] = [];
    const fs: FsSeam = {
      ...nodeFs,
      realpath: async (path) => {
        asked.push(path);
        if (fail[path] !== undefined) throw errno(fail[path]);
        if (dirs.includes(path)) return path;
        throw errno('ENOENT');
      },
      lstat: async () => Promise.reject(errno('ENOENT')),
    };
    return { fs, asked };
  }

  it('asks the whole path first, then its directory, then each real name once, skipping empty names, `.` and `..` (red: a name the kernel needs no lookup for costs one)', async () => {
    const { fs, asked } = treeSeam(['/', '/x', '/x/y']);
    expect(await resolveTarget('/x//./y/../y/m/n', fs)).toBe('/x/y/m/n');
    expect(asked).toEqual(['/x//./y/../y/m/n', '/x//./y/../y/m', '/x', '/x/y', '/x/y', '/x/y/m']);
  });

  it('resolves a missing last name with one lookup of its directory, not one per ancestor, and never looks the name up again (red: every lock, temporary file and first ledger costs a lookup per directory above it, or its own name twice)', async () => {
    const { fs, asked } = treeSeam(['/', '/x', '/x/y']);
    expect(await resolveTarget('/x/y/new', fs)).toBe('/x/y/new');
    expect(asked).toEqual(['/x/y/new', '/x/y']);
  });

  it('resolves an existing path with one lookup, and the root too when a seam finds nothing (red: a path that exists, or the root, is looked up again through its directory)', async () => {
    const { fs, asked } = treeSeam(['/', '/x', '/x/f']);
    expect(await resolveTarget('/x/f', fs)).toBe('/x/f');
    expect(asked).toEqual(['/x/f']);
    const empty = treeSeam([]);
    expect(await resolveTarget('/', empty.fs)).toBe('/');
    expect(empty.asked).toEqual(['/']);
  });

  it.each(['/x/y/.', '/x/y/..'])(
    'walks %s name by name, as `.` and `..` are no names to look up in a directory (red: the directory of the path text is taken for the real one)',
    async (path) => {
      const { fs, asked } = treeSeam(['/', '/x']);
      await resolveTarget(path, fs);
      expect(asked.slice(0, 3)).toEqual([path, '/x', '/x/y']);
    },
  );

  it('refuses when resolving the whole path fails otherwise than ENOENT (red: an unreadable directory is walked around)', async () => {
    // Only the whole path's text fails: walked name by name, `/x/f` would read as missing.
    const { fs } = treeSeam(['/', '/x'], { '/x/./f': 'EACCES' });
    const err = await hostFailure(resolveTarget('/x/./f', fs));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('refuses when one name fails otherwise than ENOENT (red: the failed name is taken as missing)', async () => {
    const { fs } = treeSeam(['/', '/x'], { '/x/y': 'EACCES' });
    const err = await hostFailure(resolveTarget('/x/y/f', fs));
    expect(err).toMatchObject({ reason: 'permission-denied', code: 'EACCES' });
  });

  it('resolves a relative path from the working directory (red: it resolves from the root, or to nothing)', async () => {
    const cwd = realpathSync(process.cwd());
    expect(await resolveTarget('no-such-dir-cursorhooks/f')).toBe(
      join(cwd, 'no-such-dir-cursorhooks', 'f'),
    );
  });

  // A fresh copy: the separator pattern is a module-level constant.
  it('keeps a backslash inside a POSIX name (red: a name holding a backslash is split into folders)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/node/write/read.js');
    const { fs } = treeSeam(['/', '/x']);
    expect(await fresh.resolveTarget('/x/a\\b/f', fs)).toBe('/x/a\\b/f');
  });
});
