// POSIX ACLs and extended attributes across a rewrite, with the real tools from Debian's `acl`
// and `attr` packages (.ci/run installs them).
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { metadataCheck } from '../../src/node/write/metadata.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { aclToolsHere, tool } from './acl-tools.js';
import { errno, strays, swapError, tempDir, text } from './support.js';

const OLD = '{"version":1}\n';
const NEW = '{"version":1,"hooks":{}}\n';

const tools = aclToolsHere;
if (!tools) console.warn('skipped: setfacl/getfattr missing (apt-get install acl attr)');

function withFile(): { dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, 'hooks.json');
  writeFileSync(path, OLD);
  chmodSync(path, 0o640);
  return { dir, path };
}

const swap = (path: string, fs: FsSeam = nodeFs) => swapError(path, text(NEW), fs);

/** The ACL entries, without the header naming the file. */
const acl = (path: string): string => tool('getfacl', '--omit-header', '--absolute-names', path);
const userAttrs = (path: string): string => tool('getfattr', '--absolute-names', '-d', path);

describe.skipIf(!tools)('metadata across a rewrite', () => {
  it('keeps a POSIX ACL exactly, or a group that could not write the commands now can', async () => {
    const { path } = withFile();
    tool('setfacl', '-m', 'u:nobody:rw-,g::---', path);
    const before = acl(path);
    expect(before).toContain('group::---');
    expect(await swap(path)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(NEW);
    expect(acl(path)).toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o660);
  });

  it('keeps user.* extended attributes, or labels set by the user vanish', async () => {
    const { path } = withFile();
    tool('setfattr', '-n', 'user.origin', '-v', 'dotfiles', path);
    tool('setfattr', '-n', 'user.empty', path);
    const before = userAttrs(path);
    expect(await swap(path)).toBeUndefined();
    expect(userAttrs(path)).toBe(before);
  });

  it('does not let a default ACL of the directory widen a file that had none, or access widens', async () => {
    const { dir, path } = withFile();
    tool('setfacl', '-d', '-m', 'u:nobody:rwx', dir);
    expect(await swap(path)).toBeUndefined();
    expect(acl(path)).not.toContain('nobody');
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it('refuses with nothing changed when an attribute cannot be carried over, or it is silently dropped', async () => {
    const { dir, path } = withFile();
    tool('setfattr', '-n', 'user.origin', '-v', 'dotfiles', path);
    const refusing: FsSeam = {
      ...nodeFs,
      setXattr: async () => {
        throw errno('EPERM');
      },
    };
    expect(await swap(path, refusing)).toMatchObject({
      reason: 'metadata-not-preserved',
      role: 'hook-file',
      path,
    });
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(userAttrs(path)).toContain('user.origin="dotfiles"');
    expect(strays(dir, 'hooks.json')).toEqual([]);
  });

  it('refuses when a copied attribute does not read back, or a failed copy passes as preserved', async () => {
    const { path } = withFile();
    tool('setfattr', '-n', 'user.origin', '-v', 'dotfiles', path);
    const lossy: FsSeam = {
      ...nodeFs,
      setXattr: async (target, name) => nodeFs.setXattr(target, name, text('x')),
    };
    expect(await swap(path, lossy)).toMatchObject({ reason: 'metadata-not-preserved' });
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });
});

describe('a file system without extended attributes', () => {
  it('writes as before when listing says ENOTSUP, or such file systems refuse every write', async () => {
    const { path } = withFile();
    const unsupported: FsSeam = {
      ...nodeFs,
      listXattrs: async () => {
        throw errno('ENOTSUP');
      },
    };
    expect(await swap(path, unsupported)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(NEW);
  });

  it('refuses when listing fails otherwise, or an unreadable ACL is silently dropped', async () => {
    const { path } = withFile();
    const failing: FsSeam = {
      ...nodeFs,
      listXattrs: async () => {
        throw errno('EIO');
      },
    };
    expect(await swap(path, failing)).toMatchObject({
      reason: 'metadata-not-preserved',
      code: 'EIO',
    });
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });
});

describe('the metadata check', () => {
  it('is performed here on Linux with the module, or status reports a check it did not make', async () => {
    expect(await metadataCheck()).toEqual(
      process.platform === 'linux'
        ? { performed: true, writes: 'preserve' }
        : expect.objectContaining({ performed: false }),
    );
  });

  it('reports not-performed with why and a refusing write when the module does not load, or status claims a check', async () => {
    const blind: FsSeam = { ...nodeFs, xattrsLoaded: async () => false };
    expect(await metadataCheck(blind)).toEqual({
      performed: false,
      why: 'module-unloadable',
      writes: 'refuse',
    });
    expect(await metadataCheck(blind, { acceptMetadataLoss: true })).toEqual({
      performed: false,
      why: 'module-unloadable',
      writes: 'accept-loss',
    });
  });

  it.skipIf(!tools)(
    'refuses the rewrite of a file when the module does not load, the ACL kept, and writes it when the loss is accepted (red: copyMetadata returns quietly and the ACL is gone)',
    async () => {
      const { dir, path } = withFile();
      tool('setfacl', '-m', 'u:nobody:rw-', path);
      const before = acl(path);
      const blind: FsSeam = { ...nodeFs, xattrsLoaded: async () => false };
      expect(await swap(path, blind)).toMatchObject({ reason: 'metadata-not-preserved', path });
      expect(readFileSync(path, 'utf8')).toBe(OLD);
      expect(acl(path)).toBe(before);
      expect(strays(dir, 'hooks.json')).toEqual([]);
      const expected = await readFileSnapshot(path);
      await writeHookFile(path, expected, text(NEW), { fs: blind, acceptMetadataLoss: true });
      expect(readFileSync(path, 'utf8')).toBe(NEW);
    },
  );
});
