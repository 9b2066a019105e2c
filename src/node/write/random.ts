// Random names and nonces from the kernel's generator, read from /dev/urandom: the source
// node:crypto's randomBytes draws on too, without loading node:crypto and its streams (about
// 2.7 ms and 17 built-in modules on every write). Node's crypto serves where there is no such
// device (Windows, a sandbox without /dev). A name is only a guess-proof label: every file named
// with one is created exclusively, so even a repeated name fails safe.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const DEVICE = '/dev/urandom';

/** `bytes` random bytes as lowercase hex. */
export async function randomHex(bytes: number): Promise<string> {
  return (kernelRandom(bytes) ?? (await cryptoRandom(bytes))).toString('hex');
}

/**
 * The bytes read from the kernel's random device; undefined where it is absent, unreadable or
 * no character device (a regular file there would hand out a fixed name).
 */
function kernelRandom(bytes: number): Buffer | undefined {
  if (process.platform === 'win32') return undefined;
  let fd: number;
  try {
    fd = openSync(DEVICE, 'r');
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isCharacterDevice()) return undefined;
    const buffer = Buffer.alloc(bytes);
    for (let filled = 0; filled < bytes; ) {
      const read = readSync(fd, buffer, filled, bytes - filled, null);
      if (read === 0) return undefined;
      filled += read;
    }
    return buffer;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

async function cryptoRandom(bytes: number): Promise<Buffer> {
  const { randomBytes } = await import('node:crypto');
  return randomBytes(bytes);
}
