// The writer's edges the main suite leaves open, through the fs seam: the mode of a new file,
// when the owner is copied and what a refused chown may be, handles closed on every path, a
// read-back that lands on another file.
import { chownSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/limits.js';
import { FileChangedError, HostIOError } from '../../src/node/errors.js';
import { compareAndSwap, sameFile } from '../../src/node/write/cas-write.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { errno, failing, isDataTemp, strays, tempDir, text, wrapSeam } from './support.js';

const OLD = '{"version":1}\n';
const NEW = '{"version":1,"hooks":{}}\n';
const root = process.getuid?.() === 0;

function withFile(): { dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, 'hooks.json');
  writeFileSync(path, OLD);
  return { dir, path };
}

async function swap(path: string, fs: FsSeam = nodeFs, newFileMode?: number): Promise<unknown> {
  const expected = await readFileSnapshot(path);
  const options = { fs, ...(newFileMode === undefined ? {} : { newFileMode }) };
  return compareAndSwap(path, expected, text(NEW), options).then(
    () => undefined,
    (err: unknown) => err,
  );
}

/** The seam counting calls by name, and apart those on the temp file (`temp.<name>`). */
function counting(): { fs: FsSeam; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const fs = wrapSeam((call, at) => {
    const name = at !== undefined && isDataTemp(at) ? `temp.${call}` : call;
    calls[name] = (calls[name] ?? 0) + 1;
  });
  return { fs, calls };
}

describe('a new file', () => {
  it('is created 0644 under the umask by default (red: a new hook file is unreadable or world-writable)', async () => {
    const path = join(tempDir(), 'hooks.json');
    expect(await swap(path)).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('takes newFileMode when given (red: a host asking for 0600 gets 0644)', async () => {
    const path = join(tempDir(), 'hooks.json');
    expect(await swap(path, nodeFs, 0o600)).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('is written without asking for its owner (red: a first install stats and chowns a file it just made)', async () => {
    const path = join(tempDir(), 'hooks.json');
    const { fs, calls } = counting();
    expect(await swap(path, fs)).toBeUndefined();
    expect([calls['temp.fstat'], calls['temp.fchown']]).toEqual([undefined, undefined]);
  });
});

describe('the owner', () => {
  it('is not changed when the temp file already has it (red: every write pays a chown)', async () => {
    const { path } = withFile();
    const { fs, calls } = counting();
    expect(await swap(path, fs)).toBeUndefined();
    expect(calls['temp.fchown']).toBeUndefined();
  });

  it.runIf(root)(
    'is copied when only the group differs (red: a file of group 65534 becomes root-group)',
    async () => {
      const { path } = withFile();
      chownSync(path, 0, 65534);
      expect(await swap(path)).toBeUndefined();
      expect(statSync(path)).toMatchObject({ uid: 0, gid: 65534 });
    },
  );

  it.runIf(root)(
    'fails the write when chown fails otherwise, leaving the old bytes (red: an I/O error is taken for a refusal)',
    async () => {
      const { dir, path } = withFile();
      chownSync(path, 65534, 65534);
      const err = await swap(path, failing('fchown', 'EIO'));
      expect(err).toBeInstanceOf(HostIOError);
      expect(err).toMatchObject({ reason: 'io-failure', code: 'EIO' });
      expect(readFileSync(path, 'utf8')).toBe(OLD);
      expect(strays(dir, 'hooks.json')).toEqual([]);
    },
  );

  it.runIf(root)(
    'is copied when only the user differs (red: a file of user 65534 becomes root-owned)',
    async () => {
      const { path } = withFile();
      chownSync(path, 65534, 0);
      expect(await swap(path)).toBeUndefined();
      expect(statSync(path)).toMatchObject({ uid: 65534, gid: 0 });
    },
  );
});

describe('handles', () => {
  it('are all closed after a write (red: each write leaks a handle, or unlinks a temp name the rename already took)', async () => {
    const { path } = withFile();
    const { fs, calls } = counting();
    expect(await swap(path, fs)).toBeUndefined();
    expect(calls.close).toBe(calls.open);
    // The temp name is gone with the rename: nothing is left to remove.
    expect(calls['temp.unlink']).toBeUndefined();
  });

  it('are all closed when writing the temp file fails (red: a failed write leaks its handle)', async () => {
    const { path } = withFile();
    const calls: Record<string, number> = {};
    const fs = wrapSeam((call, at) => {
      calls[call] = (calls[call] ?? 0) + 1;
      if (call === 'write' && at !== undefined && isDataTemp(at)) throw errno('ENOSPC');
    });
    expect(await swap(path, fs)).toMatchObject({ reason: 'disk-full' });
    expect(calls.close).toBe(calls.open);
  });
});

describe('the read-back', () => {
  it('refuses bytes that read back right but from another file (red: a write that a symlink swap diverted passes)', async () => {
    const { dir, path } = withFile();
    const elsewhere = join(dir, 'elsewhere.json');
    const diverting: FsSeam = {
      ...nodeFs,
      rename: async (from, to) => {
        await nodeFs.rename(from, to);
        writeFileSync(elsewhere, readFileSync(to));
        unlinkSync(to);
        symlinkSync(elsewhere, to);
      },
    };
    expect(await swap(path, diverting)).toMatchObject({ reason: 'readback-mismatch' });
  });
});

describe('the compare', () => {
  it('refuses the same bytes at another real path (red: a retargeted symlink with equal bytes is written through)', async () => {
    const { path } = withFile();
    const expected = await readFileSnapshot(path);
    expect(sameFile(expected, { ...expected, realPath: `${expected.realPath}.elsewhere` })).toBe(
      false,
    );
    const err = await compareAndSwap(
      path,
      { ...expected, realPath: '/elsewhere' },
      text(NEW),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileChangedError);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });

  it('refuses a file changed since the plan before making a temp file (red: a stale plan writes a temp file first)', async () => {
    const { path } = withFile();
    const expected = await readFileSnapshot(path);
    writeFileSync(path, NEW);
    const { fs, calls } = counting();
    const err = await compareAndSwap(path, expected, text(NEW), { fs }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileChangedError);
    expect(calls['temp.write']).toBeUndefined();
  });
});

/**
 * The real seam with `save` written in place just before our rename (writeFileSync truncates
 * in place), and `later` run before the put-back's rename, if given.
 */
function savingInPlace(path: string, save: string | Buffer, later?: () => void): FsSeam {
  let renames = 0;
  return {
    ...nodeFs,
    rename: async (from, to) => {
      if (to === path) {
        renames++;
        if (renames === 1) writeFileSync(path, save);
        if (renames === 2) later?.();
      }
      await nodeFs.rename(from, to);
    },
  };
}

async function inPlace(path: string, fs: FsSeam): Promise<unknown> {
  const expected = await readFileSnapshot(path);
  return compareAndSwap(path, expected, text(NEW), { fs }).then(
    () => 'written',
    (err: unknown) => err,
  );
}

describe('putting a save in place back', () => {
  it('puts back a save of exactly the limit (red: the largest legal save is refused and lost)', async () => {
    const { path } = withFile();
    const save = Buffer.alloc(MAX_DOCUMENT_BYTES, 0x20);
    expect(await inPlace(path, savingInPlace(path, save))).toBeInstanceOf(FileChangedError);
    expect(readFileSync(path).equals(save)).toBe(true);
  });

  it('refuses to put back a save past the limit (red: a truncated copy of the save replaces it)', async () => {
    const { path } = withFile();
    const save = Buffer.alloc(MAX_DOCUMENT_BYTES + 10, 0x20);
    expect(await inPlace(path, savingInPlace(path, save))).toMatchObject({
      reason: 'readback-mismatch',
    });
    expect(readFileSync(path, 'utf8')).toBe(NEW);
  });

  it('reports readback-mismatch when a second save lands during the put-back (red: the second save is reported as a plain change and lost)', async () => {
    const { path } = withFile();
    const fs = savingInPlace(path, '{"saved":1}', () => writeFileSync(path, '{"saved":2}'));
    expect(await inPlace(path, fs)).toMatchObject({ reason: 'readback-mismatch' });
  });

  it("reports the put-back's own failure as it is (red: a full disk is reported as a mismatch)", async () => {
    const { path } = withFile();
    let renamed = false;
    const base = savingInPlace(path, '{"saved":1}');
    const fs: FsSeam = {
      ...base,
      rename: async (from, to) => {
        await base.rename(from, to);
        renamed = true;
      },
      write: async (handle, bytes) => {
        if (renamed) throw errno('ENOSPC');
        return base.write(handle, bytes);
      },
    };
    expect(await inPlace(path, fs)).toMatchObject({ reason: 'disk-full' });
  });
});
