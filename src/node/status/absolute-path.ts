// What counts as an absolute path on each platform: the host path checks and the CLI's
// --executable and --selector follow this one rule, judged for the contract's platform.
import { win32 } from 'node:path';

/** Absolute on POSIX (`/…`), or on Windows a drive or UNC path. */
export function isAbsolute(path: string, windows: boolean): boolean {
  // `\x` without a drive is relative to the current drive, so only drive and UNC forms count.
  return windows ? win32.isAbsolute(path) && !/^[\\/](?![\\/])/.test(path) : path.startsWith('/');
}
