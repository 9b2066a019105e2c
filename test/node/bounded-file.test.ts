// readBoundedFile: the one reader of the files the kit only reads (records, recordings, state
// files, bindings). Each case is something anyone able to write beside those files can plant.
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBoundedFile } from '../../src/node/write/bounded-file.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { hostFailure, tempDir, wrapSeam } from './support.js';

const CAP = { maxBytes: 1024 };

describe('readBoundedFile', () => {
  it('refuses a sparse 64 MiB file without reading a byte of it (red: the size is checked only after reading)', async () => {
    const huge = join(tempDir(), 'huge.json');
    execFileSync('truncate', ['-s', '64M', huge]);
    let reads = 0;
    const counting = wrapSeam((call) => {
      if (call === 'read') reads++;
    });
    expect((await hostFailure(readBoundedFile(huge, counting, CAP))).reason).toBe('file-too-large');
    expect(reads).toBe(0);
  });

  it('reads a file of exactly the cap and refuses one byte more (red: the cap is off by one)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'exact'), 'x'.repeat(1024));
    writeFileSync(join(dir, 'over'), 'x'.repeat(1025));
    expect((await readBoundedFile(join(dir, 'exact'), nodeFs, CAP))?.bytes.length).toBe(1024);
    const over = await hostFailure(readBoundedFile(join(dir, 'over'), nodeFs, CAP));
    expect(over.reason).toBe('file-too-large');
  });

  it.each([
    ['/dev/zero', () => '/dev/zero'],
    [
      'a FIFO with no writer',
      () => {
        const fifo = join(tempDir(), 'fifo');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
    ],
    ['a directory', () => tempDir()],
  ])(
    'refuses %s as file-not-regular without blocking (red: it is read or waited on)',
    async (_, make) => {
      expect((await hostFailure(readBoundedFile(make(), nodeFs, CAP))).reason).toBe(
        'file-not-regular',
      );
    },
  );

  it('refuses a symlink with noFollow and follows it without (red: a link in a private directory is followed)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target'), 'outside');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    const refused = await hostFailure(
      readBoundedFile(join(dir, 'link'), nodeFs, { ...CAP, noFollow: true }),
    );
    expect(refused.reason).toBe('file-is-link');
    const followed = await readBoundedFile(join(dir, 'link'), nodeFs, CAP);
    expect(new TextDecoder().decode(followed?.bytes)).toBe('outside');
  });

  it('says nothing is there for an absent file (red: absence is an error or an empty file)', async () => {
    expect(await readBoundedFile(join(tempDir(), 'none'), nodeFs, CAP)).toBeUndefined();
  });
});
