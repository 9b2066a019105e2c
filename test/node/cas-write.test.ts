import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileChangedError, HostIOError } from '../../src/node/errors.js';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import {
  errno,
  failing,
  isDataTemp,
  strays,
  swapError,
  tempDir,
  text,
  wrapSeam,
} from './support.js';

const OLD = '{"version":1}\n';
const NEW = '{\n  "version": 1,\n  "hooks": {}\n}\n';

async function withFile(mode = 0o644): Promise<{ dir: string; path: string }> {
  const dir = tempDir();
  const path = join(dir, 'hooks.json');
  writeFileSync(path, OLD, { mode });
  chmodSync(path, mode);
  return { dir, path };
}

const swap = (path: string, fs: FsSeam = nodeFs) => swapError(path, text(NEW), fs);

const root = process.getuid?.() === 0;

describe('the compare-and-swap writer', () => {
  it('replaces the bytes, keeps mode 0600 and leaves nothing beside, or the file is weakened', async () => {
    const { dir, path } = await withFile(0o600);
    expect(await swap(path)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(NEW);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(strays(dir, 'hooks.json')).toEqual([]);
  });

  it('keeps a symlink a symlink and updates its target, or dotfile managers lose the link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'dotfiles'));
    const real = join(dir, 'dotfiles', 'hooks.json');
    writeFileSync(real, OLD);
    symlinkSync(real, join(dir, 'hooks.json'));
    expect(await swap(join(dir, 'hooks.json'))).toBeUndefined();
    expect(lstatSync(join(dir, 'hooks.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(NEW);
    expect(strays(join(dir, 'dotfiles'), 'hooks.json')).toEqual([]);
  });

  it('creates an absent file and its directory, or a first install fails', async () => {
    const dir = tempDir();
    const path = join(dir, '.cursor', 'hooks.json');
    expect(await swap(path)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(NEW);
    expect(statSync(path).mode & 0o077 & ~process.umask()).toBe(0o044 & ~process.umask());
  });

  it('refuses a file changed since it was read, writing nothing, or a foreign edit is lost', async () => {
    const { dir, path } = await withFile();
    const expected = await readFileSnapshot(path);
    writeFileSync(path, '{"version":1,"edited":true}');
    const err = await writeHookFile(path, expected, text(NEW)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileChangedError);
    expect(readFileSync(path, 'utf8')).toBe('{"version":1,"edited":true}');
    expect(strays(dir, 'hooks.json')).toEqual([]);
  });

  it('refuses a hard-linked file, writing nothing, or the other link silently keeps the old bytes', async () => {
    const { dir, path } = await withFile();
    linkSync(path, join(dir, 'shared.json'));
    const err = await swap(path);
    expect(err).toMatchObject({ reason: 'file-hard-linked' });
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(statSync(path).nlink).toBe(2);
    expect(strays(dir, 'hooks.json', 'shared.json')).toEqual([]);
  });

  it('tells an absent file from an empty one, or an empty file created meanwhile is replaced', async () => {
    const dir = tempDir();
    const path = join(dir, 'hooks.json');
    const expected = await readFileSnapshot(path);
    writeFileSync(path, '');
    await expect(writeHookFile(path, expected, text(NEW))).rejects.toBeInstanceOf(FileChangedError);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it.each([
    ['write', 'ENOSPC', 'disk-full'],
    ['open', 'EACCES', 'directory-not-writable'],
    ['open', 'EROFS', 'permission-denied'],
    ['fsync', 'EIO', 'io-failure'],
    ['rename', 'EXDEV', 'io-failure'],
  ] as const)(
    'on %s failing with %s reports %s with the old bytes and no temp or lock file, or a failure corrupts or litters',
    async (call, code, reason) => {
      const { dir, path } = await withFile();
      const fs = failing(call, code, isDataTemp);
      const err = (await swap(path, fs)) as HostIOError;
      expect(err).toBeInstanceOf(HostIOError);
      expect(err).toMatchObject({ reason, code });
      expect(readFileSync(path, 'utf8')).toBe(OLD);
      expect(strays(dir, 'hooks.json')).toEqual([]);
    },
  );

  it.skipIf(root)(
    'reports a read-only directory as directory-not-writable, leaving the file, or the error is unclear',
    async () => {
      const { dir, path } = await withFile();
      chmodSync(dir, 0o555);
      try {
        const err = (await swap(path)) as HostIOError;
        expect(err).toMatchObject({ reason: 'directory-not-writable', code: 'EACCES', path: dir });
        expect(readFileSync(path, 'utf8')).toBe(OLD);
      } finally {
        chmodSync(dir, 0o755);
      }
      expect(strays(dir, 'hooks.json')).toEqual([]);
    },
  );

  it.runIf(root)(
    'keeps the set-id bits of a file owned by another user, or a chown after chmod clears them',
    async () => {
      const { path } = await withFile();
      chownSync(path, 65534, 65534);
      chmodSync(path, 0o4755);
      expect(await swap(path)).toBeUndefined();
      expect(statSync(path)).toMatchObject({ uid: 65534, gid: 65534 });
      expect(statSync(path).mode & 0o7777).toBe(0o4755);
    },
  );

  it.runIf(root).each(['EPERM', 'EINVAL'])(
    'writes when chown is refused with %s, or a file system without ownership blocks every write',
    async (code) => {
      const { path } = await withFile();
      chownSync(path, 65534, 65534);
      expect(await swap(path, failing('fchown', code))).toBeUndefined();
      expect(readFileSync(path, 'utf8')).toBe(NEW);
    },
  );

  it('names the directory when the temp file cannot be created there, or the user is told to fix the file', async () => {
    const { dir, path } = await withFile();
    const err = await swap(path, failing('open', 'EACCES', isDataTemp));
    expect(err).toMatchObject({ reason: 'directory-not-writable', role: 'directory', path: dir });
  });

  it('names the directory when flushing it fails, or the failing role is unknown', async () => {
    const { dir, path } = await withFile();
    const fs = wrapSeam((call, at) => {
      if (call === 'fsync' && at === dir) throw errno('EIO');
    });
    expect(await swap(path, fs)).toMatchObject({
      reason: 'io-failure',
      role: 'directory',
      path: dir,
    });
  });

  it('names the file and its role when writing it fails, or the user cannot tell hook file from ledger', async () => {
    const { path } = await withFile();
    const expected = await readFileSnapshot(path);
    const fs = failing('write', 'ENOSPC', isDataTemp);
    const err = await writeHookFile(path, expected, text(NEW), { fs, role: 'ledger' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ reason: 'disk-full', role: 'ledger', path });
  });

  it.each([
    [undefined, 1],
    [false, 0],
  ] as const)(
    'with syncDirectory %s flushes the directory %i times, or the ledger commit pays a flush it needs not',
    async (syncDirectory, flushes) => {
      const { dir, path } = await withFile();
      let count = 0;
      const fs = wrapSeam((call, at) => {
        if (call === 'fsync' && at === dir) count++;
      });
      const expected = await readFileSnapshot(path);
      await writeHookFile(path, expected, text(NEW), {
        fs,
        ...(syncDirectory === undefined ? {} : { syncDirectory }),
      });
      expect(readFileSync(path, 'utf8')).toBe(NEW);
      expect(count).toBe(flushes);
    },
  );

  it('reports a write that does not read back as readback-mismatch, or a lost write passes', async () => {
    const { path } = await withFile();
    const clobbering: FsSeam = {
      ...nodeFs,
      rename: async (from, to) => {
        await nodeFs.rename(from, to);
        writeFileSync(to, '{"version":1,"foreign":1}');
      },
    };
    expect(((await swap(path, clobbering)) as HostIOError).reason).toBe('readback-mismatch');
  });
});
