import { isUtf8 } from 'node:buffer';
import { UnsupportedError } from '../errors/errors.js';

/**
 * Refuses anything but strict UTF-8: overlong forms, surrogate code points, truncated
 * sequences, bytes 0xF5..0xFF and a leading byte-order mark. Validation is native and needs no
 * decoded copy; afterwards any slice between two ASCII token bytes decodes exactly.
 */
export function assertStrictUtf8(bytes: Uint8Array): void {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new UnsupportedError('document-bom');
  }
  if (!isUtf8(bytes)) throw new UnsupportedError('document-not-utf8');
}
