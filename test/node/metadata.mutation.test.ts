// copyMetadata against attributes kept in memory by a seam double, so each branch is reached on
// purpose: which attributes are removed, set or left alone, what an unreadable value counts as,
// when the file system has none, and when Node cannot see them; and metadataCheck on macOS.
import { afterEach, describe, expect, it } from 'vitest';
import { HostIOError } from '../../src/node/errors.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { copyMetadata, metadataCheck } from '../../src/node/write/metadata.js';
import { errno, hostFailure, text } from './support.js';

type Attrs = Map<string, Uint8Array | undefined>;

interface Double {
  readonly fs: FsSeam;
  readonly calls: string[];
  readonly files: Map<string, Attrs>;
}

/**
 * Attributes per path in memory, the module loaded. `list` may override what listing a path
 * answers (called each time); a stored undefined value reads as absent.
 */
function double(
  files: Record<string, Record<string, string | undefined>>,
  list: (path: string, names: string[]) => string[] = (_, names) => names,
): Double {
  const calls: string[] = [];
  const store = new Map<string, Attrs>(
    Object.entries(files).map(([path, attrs]) => [
      path,
      new Map(
        Object.entries(attrs).map(([n, v]) => [n, v === undefined ? undefined : text(v)] as const),
      ),
    ]),
  );
  const of = (path: string): Attrs => store.get(path) ?? new Map();
  const fs: FsSeam = {
    ...nodeFs,
    xattrsLoaded: async () => true,
    listXattrs: async (path) => list(path, [...of(path).keys()]),
    getXattr: async (path, name) => of(path).get(name),
    setXattr: async (path, name, value) => {
      calls.push(`set ${path} ${name}`);
      store.set(path, of(path).set(name, value));
    },
    removeXattr: async (path, name) => {
      calls.push(`remove ${path} ${name}`);
      of(path).delete(name);
    },
  };
  return { fs, calls, files: store };
}

const decoded = (attrs: Attrs | undefined) =>
  Object.fromEntries(
    [...(attrs ?? new Map())].map(([n, v]) => [n, v && new TextDecoder().decode(v)]),
  );

describe('copyMetadata', () => {
  it('removes what the old file lacks, sets what differs or is missing, and leaves equal values alone (red: an attribute is dropped, kept or rewritten needlessly)', async () => {
    const d = double({
      old: { 'user.same': 's', 'user.changed': 'new', 'user.added': 'a' },
      tmp: { 'user.same': 's', 'user.changed': 'old', 'user.extra': 'x' },
    });
    await copyMetadata('old', 'tmp', d.fs);
    expect(decoded(d.files.get('tmp'))).toEqual({
      'user.same': 's',
      'user.changed': 'new',
      'user.added': 'a',
    });
    expect(d.calls.sort()).toEqual([
      'remove tmp user.extra',
      'set tmp user.added',
      'set tmp user.changed',
    ]);
  });

  it('changes nothing when the sets already match, or only the values differ in size (red: the early return or the size check is lost)', async () => {
    const same = double({ old: { 'user.a': '1' }, tmp: { 'user.a': '1' } });
    await copyMetadata('old', 'tmp', same.fs);
    expect(same.calls).toEqual([]);
    const superset = double({ old: { 'user.a': '1' }, tmp: { 'user.a': '1', 'user.b': '2' } });
    await copyMetadata('old', 'tmp', superset.fs);
    expect(superset.calls).toEqual(['remove tmp user.b']);
  });

  it('refuses without a call when the module does not load, and touches nothing when the loss is accepted (red: a blind copy returns quietly, or strips the new file)', async () => {
    const d = double({ old: { 'user.a': '1' }, tmp: { 'user.b': '2' } });
    const blind: FsSeam = { ...d.fs, xattrsLoaded: async () => false };
    expect(await hostFailure(copyMetadata('old', 'tmp', blind))).toMatchObject({
      reason: 'metadata-not-preserved',
      code: undefined,
    });
    await copyMetadata('old', 'tmp', blind, { acceptMetadataLoss: true });
    expect(d.calls).toEqual([]);
    expect(decoded(d.files.get('tmp'))).toEqual({ 'user.b': '2' });
  });

  it('refuses with the code when the new file cannot be listed for the check (red: an unverified copy passes)', async () => {
    let listedTmp = 0;
    const d = double({ old: { 'user.a': '1' }, tmp: {} }, (path, names) => {
      if (path === 'tmp' && listedTmp++ > 0) throw errno('EIO');
      return names;
    });
    expect(await hostFailure(copyMetadata('old', 'tmp', d.fs))).toMatchObject({
      reason: 'metadata-not-preserved',
      code: 'EIO',
    });
  });

  it('reads a listed attribute with no value as empty, on both sides (red: an unreadable value crashes the comparison)', async () => {
    const d = double({ old: { 'user.a': undefined }, tmp: { 'user.a': '' } });
    await copyMetadata('old', 'tmp', d.fs);
    expect(d.calls).toEqual([]);
  });

  it('treats ENOTSUP and EOPNOTSUPP from listing as no attributes, other failures as a refusal with their code (red: such file systems refuse every write)', async () => {
    for (const code of ['ENOTSUP', 'EOPNOTSUPP']) {
      const d = double({ tmp: { 'user.b': '2' } });
      const fs: FsSeam = {
        ...d.fs,
        listXattrs: async (path) => {
          if (path === 'old') throw errno(code);
          return d.fs.listXattrs(path);
        },
      };
      await copyMetadata('old', 'tmp', fs);
      // No attributes on the old file: the new one's are removed.
      expect(d.calls, code).toEqual(['remove tmp user.b']);
    }
    const failing: FsSeam = {
      ...nodeFs,
      listXattrs: async () => {
        throw errno('EIO');
      },
    };
    expect(await hostFailure(copyMetadata('old', 'tmp', failing))).toMatchObject({
      reason: 'metadata-not-preserved',
      code: 'EIO',
    });
  });

  it('refuses when a value reads back different, and when it lands under another name (red: the check compares sizes or names only)', async () => {
    const d = double({ old: { 'user.a': 'one' }, tmp: {} });
    const lossy: FsSeam = { ...d.fs, setXattr: (p, n) => d.fs.setXattr(p, n, text('two')) };
    expect(await hostFailure(copyMetadata('old', 'tmp', lossy))).toMatchObject({
      reason: 'metadata-not-preserved',
    });
    // Same size, another name: the value found under the wanted name is missing.
    const e = double({ old: { 'user.a': 'one' }, tmp: {} });
    const renaming: FsSeam = { ...e.fs, setXattr: (p, _n, v) => e.fs.setXattr(p, 'user.z', v) };
    expect(await hostFailure(copyMetadata('old', 'tmp', renaming))).toMatchObject({
      reason: 'metadata-not-preserved',
    });
  });
});

describe('copyMetadata, what it asks', () => {
  it('lists each file once when the sets already match, no check listing after (red: the common case pays a verification)', async () => {
    const d = double({ old: { 'user.a': '1' }, tmp: { 'user.a': '1' } });
    const listed: string[] = [];
    const fs: FsSeam = {
      ...d.fs,
      listXattrs: async (path) => {
        listed.push(path);
        return d.fs.listXattrs(path);
      },
    };
    await copyMetadata('old', 'tmp', fs);
    expect(listed).toEqual(['old', 'tmp']);
  });

  it('replaces an attribute of the same count but another name (red: a name missing from the other set crashes the comparison)', async () => {
    const d = double({ old: { 'user.a': '1' }, tmp: { 'user.b': '1' } });
    await copyMetadata('old', 'tmp', d.fs);
    expect(d.calls.sort()).toEqual(['remove tmp user.b', 'set tmp user.a']);
  });

  it('lets a kit error from the seam through as it is (red: it is rewrapped as metadata-not-preserved)', async () => {
    const kit = new HostIOError('disk-full', 'ENOSPC');
    const fs: FsSeam = {
      ...nodeFs,
      listXattrs: async () => {
        throw kit;
      },
    };
    expect(await hostFailure(copyMetadata('old', 'tmp', fs))).toBe(kit);
  });
});

describe('metadataCheck', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform');
  afterEach(() => {
    if (platform) Object.defineProperty(process, 'platform', platform);
  });

  it('says acls-not-xattrs on macOS with the module loaded, the writes still preserving what they see (red: status claims ACL checks Node cannot make)', async () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
    const loaded: FsSeam = { ...nodeFs, xattrsLoaded: async () => true };
    expect(await metadataCheck(loaded)).toEqual({
      performed: false,
      why: 'acls-not-xattrs',
      writes: 'preserve',
    });
    const blind: FsSeam = { ...nodeFs, xattrsLoaded: async () => false };
    expect(await metadataCheck(blind)).toMatchObject({
      why: 'module-unloadable',
      writes: 'refuse',
    });
  });

  it('says windows-acls on Windows, loaded or not, and the copy makes no call there (red: every Windows write refuses, or claims a check)', async () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    for (const xattrsLoaded of [async () => true, async () => false]) {
      expect(await metadataCheck({ ...nodeFs, xattrsLoaded })).toEqual({
        performed: false,
        why: 'windows-acls',
        writes: 'unchecked',
      });
    }
    const d = double({ old: { 'user.a': '1' }, tmp: {} });
    await copyMetadata('old', 'tmp', d.fs);
    expect(d.calls).toEqual([]);
  });
});
