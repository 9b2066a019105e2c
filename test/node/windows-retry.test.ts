// Windows' transient sharing refusals, simulated through the seam (no Linux process can cause
// them): rename and unlink are retried within a bound, anything else fails at once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { windowsRetrying } from '../../src/node/write/windows-retry.js';
import { errno, strays, tempDir, text } from './support.js';

/** A seam whose `call` fails with `code` the first `times` times. */
function flaky(
  call: 'rename' | 'unlink',
  code: string,
  times: number,
): { fs: FsSeam; calls: () => number } {
  let calls = 0;
  const fs: FsSeam = {
    ...nodeFs,
    [call]: async (...args: [string, string]) => {
      calls++;
      if (calls <= times) throw errno(code);
      return (nodeFs[call] as (...a: [string, string]) => Promise<void>)(...args);
    },
  };
  return { fs, calls: () => calls };
}

describe('Windows transient refusals', () => {
  it.each(['EPERM', 'EACCES', 'EBUSY'])(
    'writes the file when rename is refused %s a few times, or a scanner holding the file fails the install',
    async (code) => {
      const dir = tempDir();
      const path = join(dir, 'hooks.json');
      writeFileSync(path, '{"version":1}\n');
      const { fs, calls } = flaky('rename', code, 3);
      await writeHookFile(path, await readFileSnapshot(path), text('{"version":1,"hooks":{}}\n'), {
        fs: windowsRetrying(fs),
      });
      expect(readFileSync(path, 'utf8')).toBe('{"version":1,"hooks":{}}\n');
      expect(calls()).toBeGreaterThanOrEqual(4);
      expect(strays(dir, 'hooks.json')).toEqual([]);
    },
  );

  it('retries unlink of a name stuck delete-pending, or a lock or temp file is left behind', async () => {
    const path = join(tempDir(), 'side');
    writeFileSync(path, '');
    const { fs, calls } = flaky('unlink', 'EPERM', 2);
    await windowsRetrying(fs).unlink(path);
    expect(calls()).toBe(3);
  });

  it('gives up within its bound, or a file held open forever hangs the kit', async () => {
    const path = join(tempDir(), 'side');
    const { fs, calls } = flaky('unlink', 'EBUSY', Number.POSITIVE_INFINITY);
    await expect(windowsRetrying(fs, { budgetMs: 50 }).unlink(path)).rejects.toMatchObject({
      code: 'EBUSY',
    });
    expect(calls()).toBeGreaterThan(1);
    expect(calls()).toBeLessThan(10);
  });

  it('fails at once on a lasting error, or EXDEV and ENOENT wait out the budget', async () => {
    const path = join(tempDir(), 'side');
    const { fs, calls } = flaky('unlink', 'ENOENT', Number.POSITIVE_INFINITY);
    await expect(windowsRetrying(fs).unlink(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(calls()).toBe(1);
  });
});
