import { UnsupportedError } from '../errors/errors.js';
import { MAX_ARGS, MAX_ARGV_BYTES, MAX_TOKEN_BYTES } from '../limits.js';

/**
 * The token rules every built-in contract shares (SPEC §7). Refuses with `UnsupportedError`:
 * not an array of strings, more than MAX_ARGS tokens, a token over MAX_TOKEN_BYTES or all
 * tokens over MAX_ARGV_BYTES of UTF-8, NUL/CR/LF/`$`/backtick, or an unpaired surrogate.
 */
export function assertArgvTokens(argv: unknown): asserts argv is readonly string[] {
  if (!Array.isArray(argv)) throw new UnsupportedError('argv-malformed');
  // Checked before touching any element, so a huge array costs nothing.
  if (argv.length > MAX_ARGS) throw new UnsupportedError('argv-too-many-tokens');
  let total = 0;
  // Indexed loop: a sparse hole reads as undefined and is refused as malformed.
  for (let i = 0; i < argv.length; i++) {
    const token: unknown = argv[i];
    if (typeof token !== 'string') throw new UnsupportedError('argv-malformed');
    total += tokenUtf8Bytes(token);
    if (total > MAX_ARGV_BYTES) throw new UnsupportedError('argv-too-long');
  }
}

/**
 * One pass over the UTF-16 code units: refuses forbidden characters and unpaired surrogates and
 * counts UTF-8 bytes without encoding. It stops as soon as the token is over the limit, so an
 * enormous string costs at most MAX_TOKEN_BYTES + 1 steps; within that prefix the first offending
 * code unit names the reason.
 */
function tokenUtf8Bytes(token: string): number {
  let bytes = 0;
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit < 0x80) {
      if (isForbiddenAscii(unit)) throw new UnsupportedError('argv-forbidden-character');
      bytes += 1;
    } else if (unit < 0x800) {
      bytes += 2;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = token.charCodeAt(i + 1); // NaN past the end, which fails the range test
      if (!(next >= 0xdc00 && next <= 0xdfff)) {
        throw new UnsupportedError('argv-unpaired-surrogate');
      }
      i++; // the pair is one code point: four bytes
      bytes += 4;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      throw new UnsupportedError('argv-unpaired-surrogate');
    } else {
      bytes += 3;
    }
    if (bytes > MAX_TOKEN_BYTES) throw new UnsupportedError('argv-token-too-long');
  }
  return bytes;
}

// NUL, LF and CR end or split a command line; `$` and backtick start expansions in POSIX shells
// and PowerShell, and the Linux backend's own preprocessing of them was never observed.
function isForbiddenAscii(unit: number): boolean {
  return unit === 0x00 || unit === 0x0a || unit === 0x0d || unit === 0x24 || unit === 0x60;
}
