// Random names from the kernel's device, with node:crypto where there is none: the bytes come
// from the device when it is a character device, and from crypto when it is absent or is a plain
// file (which would hand every call the same name).
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('node:fs');
  vi.doUnmock('node:crypto');
  vi.resetModules();
});

/** randomHex with node:fs's open of /dev/urandom answered by `open`, and crypto counted. */
async function withDevice(open: (real: typeof import('node:fs')) => number) {
  const crypto = vi.fn((bytes: number) => Buffer.alloc(bytes, 0xcc));
  vi.doMock('node:crypto', () => ({ randomBytes: crypto }));
  vi.doMock('node:fs', async (importOriginal) => {
    const real = await importOriginal<typeof import('node:fs')>();
    return {
      ...real,
      openSync: (path: string, flags: string) =>
        path === '/dev/urandom' ? open(real) : real.openSync(path, flags),
    };
  });
  const { randomHex } = await import('../../src/node/write/random.js');
  return { randomHex, crypto };
}

describe('randomHex', () => {
  it.skipIf(process.platform === 'win32')(
    'reads the kernel device and never loads node:crypto (red: every write pays for crypto and its streams)',
    async () => {
      const { randomHex, crypto } = await withDevice((real) => real.openSync('/dev/urandom', 'r'));
      const a = await randomHex(16);
      expect(a).toMatch(/^[0-9a-f]{32}$/);
      expect(await randomHex(16)).not.toBe(a);
      expect(crypto).not.toHaveBeenCalled();
    },
  );

  it('takes node:crypto where the device cannot be opened (red: no /dev in a sandbox crashes every write)', async () => {
    const { randomHex, crypto } = await withDevice(() => {
      throw Object.assign(new Error('no device'), { code: 'ENOENT' });
    });
    expect(await randomHex(4)).toBe('cccccccc');
    expect(crypto).toHaveBeenCalledWith(4);
  });

  it.skipIf(process.platform === 'win32')(
    'takes node:crypto where /dev/urandom is a plain file (red: a file planted there fixes every name)',
    async () => {
      const { randomHex, crypto } = await withDevice((real) =>
        real.openSync(new URL(import.meta.url), 'r'),
      );
      expect(await randomHex(4)).toBe('cccccccc');
      expect(crypto).toHaveBeenCalledWith(4);
    },
  );
});
