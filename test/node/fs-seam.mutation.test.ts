// The real seams call by call, on files in a temporary directory: what each call does, the read
// and write arithmetic, mkdir's options, for the thread-pool seam (nodeFs) and the synchronous
// one (blockingFs) alike, and the extended-attribute calls over the real module, a recording
// fake of it (which of its calls each seam makes) and none. A seam is an object built
// when its module is evaluated, so each test imports a fresh copy: a mutation run switches
// mutants only in code evaluated after the test began.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FsSeam, XattrCalls } from '../../src/node/write/fs-seam.js';
import type { XattrModule } from '../../src/node/write/xattr-native.js';
import { errno, tempDir, text } from './support.js';

type SeamModule = typeof import('../../src/node/write/fs-seam.js');

type SeamName = 'nodeFs' | 'blockingFs';
const SEAMS: readonly SeamName[] = ['nodeFs', 'blockingFs'];

let FLAGS: SeamModule['FLAGS'];

beforeEach(async () => {
  vi.resetModules();
  ({ FLAGS } = await import('../../src/node/write/fs-seam.js'));
});

/** A fresh seam over node:fs with some of its calls replaced. */
async function seamOver(
  replace: (real: typeof import('node:fs')) => Partial<typeof import('node:fs')>,
): Promise<SeamModule> {
  vi.resetModules();
  vi.doMock('node:fs', async (importOriginal) => {
    const real = await importOriginal<typeof import('node:fs')>();
    return { ...real, ...replace(real) };
  });
  return import('../../src/node/write/fs-seam.js');
}

async function rejection(promise: Promise<unknown>): Promise<NodeJS.ErrnoException> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as NodeJS.ErrnoException;
}

afterEach(() => {
  vi.doUnmock('node:fs');
});

describe.each(SEAMS)('%s: reading and writing through an open file', (name) => {
  let seam: FsSeam;
  beforeEach(async () => {
    seam = (await import('../../src/node/write/fs-seam.js'))[name];
  });

  it('reads into the buffer from the offset up to its end, at the given position (red: the length overruns the buffer)', async () => {
    const dir = tempDir();
    const path = join(dir, 'f');
    writeFileSync(path, 'abcdefgh');
    const handle = await seam.open(path, FLAGS.read);
    const buffer = new Uint8Array(6);
    expect(await seam.read(handle, buffer, 2, 3)).toBe(4);
    expect(Array.from(buffer)).toEqual([0, 0, ...Array.from(text('defg'))]);
    expect((await seam.fstat(handle)).size).toBe(8);
    await seam.close(handle);
  });

  it('writes every byte, in order, and syncs (red: the write loop stops early, repeats or overruns)', async () => {
    const dir = tempDir();
    const path = join(dir, 'f');
    const handle = await seam.open(path, FLAGS.createExclusive, 0o600);
    const bytes = text(`${'x'.repeat(70_000)}end`);
    await seam.write(handle, bytes);
    await seam.write(handle, new Uint8Array(0));
    await seam.fsync(handle);
    await seam.fchmod(handle, 0o640);
    const stats = await seam.fstat(handle);
    await seam.fchown(handle, stats.uid, stats.gid);
    await seam.close(handle);
    expect(readFileSync(path, 'utf8')).toBe(`${'x'.repeat(70_000)}end`);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    // Exclusive create: a second open of the same path is refused.
    expect((await rejection(seam.open(path, FLAGS.createExclusive, 0o600))).code).toBe('EEXIST');
  });

  it('keeps writing after a short write, from where it stopped (red: the rest is written from the start, or past the buffer)', async () => {
    // node:fs writes at most 1000 bytes a call here, as a pipe or a full disk may.
    const fresh = await seamOver((real) => ({
      write: ((
        fd: number,
        buffer: Uint8Array,
        offset: number,
        length: number,
        position: null,
        done: (err: Error | null, n: number) => void,
      ) =>
        real.write(
          fd,
          buffer,
          offset,
          Math.min(length, 1000),
          position,
          done,
        )) as typeof real.write,
      writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) =>
        real.writeSync(fd, buffer, offset, Math.min(length, 1000), null)) as typeof real.writeSync,
    }));
    const path = join(tempDir(), 'f');
    const handle = await fresh[name].open(path, fresh.FLAGS.createExclusive, 0o600);
    const content = Array.from({ length: 2500 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
      '',
    );
    await fresh[name].write(handle, text(content));
    await fresh[name].close(handle);
    expect(readFileSync(path, 'utf8')).toBe(content);
  });

  it('does not retry a failed rename or unlink off Windows (red: the Windows retries run everywhere)', async () => {
    let calls = 0;
    const busy = (...args: unknown[]) => {
      calls++;
      (args.at(-1) as (err: Error) => void)(errno('EBUSY'));
    };
    const busySync = () => {
      calls++;
      throw errno('EBUSY');
    };
    const fresh = await seamOver(() => ({
      rename: busy as unknown as typeof import('node:fs').rename,
      renameSync: busySync,
    }));
    expect((await rejection(fresh[name].rename('/a', '/b'))).code).toBe('EBUSY');
    expect(calls).toBe(1);
  });

  it('retries a rename Windows refuses for a moment, on Windows (red: the Windows retries never run there, and a scanner holding the file fails the write)', async () => {
    let calls = 0;
    const busyOnce = (real: typeof import('node:fs')) => ({
      rename: ((from: string, to: string, done: (err: Error | null) => void) => {
        calls++;
        if (calls === 1) done(errno('EBUSY'));
        else real.rename(from, to, done);
      }) as typeof real.rename,
      renameSync: ((from: string, to: string) => {
        calls++;
        if (calls === 1) throw errno('EBUSY');
        real.renameSync(from, to);
      }) as typeof real.renameSync,
    });
    const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    let fresh: SeamModule;
    try {
      fresh = await seamOver(busyOnce);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    const dir = tempDir();
    writeFileSync(join(dir, 'a'), 'A');
    await fresh[name].rename(join(dir, 'a'), join(dir, 'b'));
    expect(calls).toBe(2);
    expect(readFileSync(join(dir, 'b'), 'utf8')).toBe('A');
  });

  it('syncs through node:fs, so a failing sync is reported (red: fsync is a no-op and a power loss can lose a file the kit called written)', async () => {
    const eio = () => errno('EIO');
    const fresh = await seamOver(() => ({
      fsync: ((_fd: number, done: (err: Error | null) => void) =>
        done(eio())) as unknown as typeof import('node:fs').fsync,
      fsyncSync: () => {
        throw eio();
      },
    }));
    const path = join(tempDir(), 'f');
    const handle = await fresh[name].open(path, fresh.FLAGS.createExclusive, 0o600);
    expect((await rejection(fresh[name].fsync(handle))).code).toBe('EIO');
    await fresh[name].close(handle);
  });

  // Only root may give a file away; elsewhere the call is exercised above with the same owner.
  it.skipIf(process.getuid?.() !== 0)(
    'changes the owner and group of an open file (red: fchown does nothing and a rewrite loses its owner)',
    async () => {
      const path = join(tempDir(), 'f');
      const handle = await seam.open(path, FLAGS.createExclusive, 0o600);
      await seam.fchown(handle, 65534, 65534);
      await seam.close(handle);
      expect(statSync(path)).toMatchObject({ uid: 65534, gid: 65534 });
    },
  );

  it('fails by a rejected promise, never a throw (red: a caller chaining .catch on a seam call meets an exception instead)', async () => {
    const missing = join(tempDir(), 'missing');
    let call: Promise<unknown> | undefined;
    expect(() => {
      call = seam.lstat(missing);
    }).not.toThrow();
    expect((await rejection(call as Promise<unknown>)).code).toBe('ENOENT');
  });

  it('closes the descriptor (red: close does nothing and descriptors leak)', async () => {
    const dir = tempDir();
    const path = join(dir, 'f');
    writeFileSync(path, 'a');
    const handle = await seam.open(path, FLAGS.read);
    await seam.close(handle);
    expect((await rejection(seam.fstat(handle))).code).toBe('EBADF');
  });
});

describe.each(SEAMS)('%s: paths', (name) => {
  let seam: FsSeam;
  beforeEach(async () => {
    seam = (await import('../../src/node/write/fs-seam.js'))[name];
  });

  it('renames, links, unlinks, lists, stats and resolves (red: a call is a no-op)', async () => {
    const dir = tempDir();
    const a = join(dir, 'a');
    writeFileSync(a, 'A');
    await seam.rename(a, join(dir, 'b'));
    expect(existsSync(a)).toBe(false);
    await seam.link(join(dir, 'b'), join(dir, 'c'));
    expect(statSync(join(dir, 'c')).nlink).toBe(2);
    await seam.unlink(join(dir, 'b'));
    expect((await seam.readdir(dir)).sort()).toEqual(['c']);
    symlinkSync('c', join(dir, 'l'));
    expect((await seam.lstat(join(dir, 'l'))).isSymbolicLink()).toBe(true);
    expect(await seam.readlink(join(dir, 'l'))).toBe('c');
    expect(await seam.realpath(join(dir, 'l'))).toBe(join(dir, 'c'));
  });

  it('makes missing parents with the mode and removes an empty directory (red: mkdir is not recursive or ignores the mode)', async () => {
    const dir = tempDir();
    const deep = join(dir, 'x', 'y');
    await seam.mkdir(deep, 0o700);
    expect(lstatSync(deep).mode & 0o777).toBe(0o700);
    // Already there: recursive mkdir does not fail.
    await seam.mkdir(deep, 0o700);
    await seam.rmdir(deep);
    expect(existsSync(deep)).toBe(false);
    mkdirSync(deep);
    writeFileSync(join(deep, 'f'), '');
    expect((await rejection(seam.rmdir(deep))).code).toBe('ENOTEMPTY');
  });
});

/** A stand-in for the module that records each call and answers from `answer`. */
function recordingModule(answer: (call: string) => unknown = () => undefined) {
  const calls: string[] = [];
  const module: Record<string, unknown> = {};
  for (const name of ['listAttributes', 'getAttribute', 'setAttribute', 'removeAttribute']) {
    module[name] = async () => {
      calls.push(name);
      return answer(name);
    };
    module[`${name}Sync`] = () => {
      calls.push(`${name}Sync`);
      return answer(`${name}Sync`);
    };
  }
  return { calls, module: module as unknown as XattrModule };
}

describe.each(SEAMS)('%s: extended attributes', (name) => {
  let seam: FsSeam;
  beforeEach(async () => {
    seam = (await import('../../src/node/write/fs-seam.js'))[name];
  });

  it('lists, gets, sets and removes, with undefined for an absent attribute (red: a missing attribute reads as null or a value reads as absent)', async () => {
    const dir = tempDir();
    const path = join(dir, 'f');
    writeFileSync(path, '');
    expect(await seam.xattrsLoaded()).toBe(true);
    await seam.setXattr(path, 'user.a', text('one'));
    expect(await seam.listXattrs(path)).toEqual(['user.a']);
    expect(Array.from((await seam.getXattr(path, 'user.a')) ?? [])).toEqual(
      Array.from(text('one')),
    );
    expect(await seam.getXattr(path, 'user.none')).toBeUndefined();
    await seam.removeXattr(path, 'user.a');
    expect(await seam.listXattrs(path)).toEqual([]);
  });

  it("turns the module's failures into errno codes, for every call (red: a failure reaches the kit as a codeless bug)", async () => {
    const missing = join(tempDir(), 'missing');
    for (const call of [
      () => seam.listXattrs(missing),
      () => seam.setXattr(missing, 'user.a', text('v')),
      () => seam.removeXattr(missing, 'user.a'),
    ]) {
      expect(await rejection(call())).toMatchObject({ code: 'ENOENT' });
    }
  });
});

describe('the attribute calls over a given module', () => {
  const each = async (seam: XattrCalls) => {
    await seam.listXattrs('/x');
    await seam.getXattr('/x', 'user.a');
    await seam.setXattr('/x', 'user.a', text('v'));
    await seam.removeXattr('/x', 'user.a');
  };

  it("makes only the module's synchronous calls when synchronous, only its promise ones otherwise (red: the CLI starts libuv's thread pool for attributes)", async () => {
    const { xattrSeam } = await import('../../src/node/write/fs-seam.js');
    const sync = recordingModule();
    await each(xattrSeam(() => sync.module, true));
    expect(sync.calls).toEqual([
      'listAttributesSync',
      'getAttributeSync',
      'setAttributeSync',
      'removeAttributeSync',
    ]);
    const pooled = recordingModule();
    await each(xattrSeam(() => pooled.module, false));
    expect(pooled.calls).toEqual([
      'listAttributes',
      'getAttribute',
      'setAttribute',
      'removeAttribute',
    ]);
  });

  it('turns a failing read into its errno code, thrown or rejected (red: getXattr lets the raw failure through)', async () => {
    const { xattrSeam } = await import('../../src/node/write/fs-seam.js');
    const failing = recordingModule((call) => {
      const failure = new Error('Permission denied (os error 13)');
      if (call.endsWith('Sync')) throw failure;
      return Promise.reject(failure);
    });
    for (const synchronous of [true, false]) {
      const seam = xattrSeam(() => failing.module, synchronous);
      expect(await rejection(seam.getXattr('/x', 'user.a'))).toMatchObject({
        code: 'EACCES',
        message: 'Permission denied (os error 13)',
      });
    }
  });

  it('reads a null value as undefined (red: an absent attribute reads as a value)', async () => {
    const { xattrSeam } = await import('../../src/node/write/fs-seam.js');
    const nulls = recordingModule(() => null);
    expect(await xattrSeam(() => nulls.module, true).getXattr('/x', 'user.a')).toBeUndefined();
  });

  it('without the module: not loaded, and every call refuses rather than answering empty (red: a write proceeds blind)', async () => {
    const { xattrSeam } = await import('../../src/node/write/fs-seam.js');
    for (const synchronous of [true, false]) {
      const seam = xattrSeam(() => undefined, synchronous);
      expect(await seam.xattrsLoaded()).toBe(false);
      for (const call of [
        () => seam.listXattrs('/x'),
        () => seam.getXattr('/x', 'user.a'),
        () => seam.setXattr('/x', 'user.a', text('v')),
        () => seam.removeXattr('/x', 'user.a'),
      ]) {
        expect((await rejection(call())).message).toBe('the xattr module did not load');
      }
    }
  });
});
