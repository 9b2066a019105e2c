// An editor that saves in place (truncate + write into the file it opened, VS Code's default)
// between the writer's last compare and its rename: its bytes land in the file the rename
// replaced. The writer keeps that file open and must notice.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileChangedError } from '../../src/node/errors.js';
import { compareAndSwap } from '../../src/node/write/cas-write.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { strays, tempDir, text } from './support.js';

const OLD = '{"version":1}\n';
const NEW = '{"version":1,"hooks":{"stop":[{"command":"ours"}]}}\n';
const SAVED = '{"version":1,"hooks":{"stop":[{"command":"the user saved this"}]}}\n';
const AGAIN = '{"version":1,"saved":"twice"}\n';

function withFile(): { dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, 'hooks.json');
  writeFileSync(path, OLD);
  return { dir, path };
}

/** The real seam, with `inPlace` run just before our rename (writeFileSync truncates in place). */
function savingBeforeRename(path: string, then?: () => void): FsSeam {
  let saved = false;
  return {
    ...nodeFs,
    rename: async (from, to) => {
      if (!saved && to === path) {
        saved = true;
        writeFileSync(path, SAVED);
        await nodeFs.rename(from, to);
        then?.();
        return;
      }
      await nodeFs.rename(from, to);
    },
  };
}

async function outcome(path: string, fs: FsSeam): Promise<unknown> {
  const expected = await readFileSnapshot(path);
  return compareAndSwap(path, expected, text(NEW), { fs }).then(
    () => 'written',
    (err: unknown) => err,
  );
}

describe('a write in place between the compare and the rename', () => {
  it("puts the saved bytes back and reports file-changed, or the user's save is silently overwritten", async () => {
    const { dir, path } = withFile();
    const err = await outcome(path, savingBeforeRename(path));
    expect(err).toBeInstanceOf(FileChangedError);
    expect(readFileSync(path, 'utf8')).toBe(SAVED);
    expect(strays(dir, 'hooks.json')).toEqual([]);
  });

  it('reports readback-mismatch when the file changed again before the bytes went back, or the third save is overwritten', async () => {
    const { dir, path } = withFile();
    let opensAfterRename = -1;
    const base = savingBeforeRename(path, () => {
      opensAfterRename = 0;
    });
    const fs: FsSeam = {
      ...base,
      open: async (target, flags, mode) => {
        // Our read-back is the first open of the file after the rename; the put-back's compare the second.
        if (target === path && opensAfterRename >= 0 && ++opensAfterRename === 2)
          writeFileSync(path, AGAIN);
        return base.open(target, flags, mode);
      },
    };
    expect(await outcome(path, fs)).toMatchObject({
      reason: 'readback-mismatch',
      path,
      role: 'hook-file',
    });
    expect(readFileSync(path, 'utf8')).toBe(AGAIN);
    expect(strays(dir, 'hooks.json')).toEqual([]);
  });

  it('writes as before when nothing touched the old file, or every write is refused', async () => {
    const { path } = withFile();
    expect(await outcome(path, nodeFs)).toBe('written');
    expect(readFileSync(path, 'utf8')).toBe(NEW);
  });
});
