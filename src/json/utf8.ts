import { isUtf8 } from 'node:buffer';
import { UnsupportedError } from '../errors/errors.js';
import { positionAt } from './position.js';

/**
 * Refuses anything but strict UTF-8: overlong forms, surrogate code points, truncated
 * sequences, bytes 0xF5..0xFF and a leading byte-order mark. Validation is native and needs no
 * decoded copy; afterwards any slice between two ASCII token bytes decodes exactly.
 */
export function assertStrictUtf8(bytes: Uint8Array): void {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new UnsupportedError('document-bom', { at: { offset: 0, line: 1, column: 1 } });
  }
  if (!isUtf8(bytes)) {
    const at = positionAt(bytes, firstInvalidUtf8(bytes));
    throw new UnsupportedError('document-not-utf8', { at });
  }
}

/**
 * The offset of the first byte of the first ill-formed sequence (Unicode table 3-7), or the
 * length when there is none. Only a refusal calls it, after the native check said no.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i] as number;
    const size = sequenceSize(bytes, i, lead);
    if (size === 0) return i;
    i += size;
  }
  return length;
}

/** Bytes in the well-formed sequence led by `lead` at `i`, or 0 when it is ill-formed. */
function sequenceSize(bytes: Uint8Array, i: number, lead: number): number {
  if (lead < 0x80) return 1;
  // The range the second byte must fall in narrows for E0, ED, F0 and F4 (no overlong forms,
  // no surrogates, nothing past U+10FFFF); every other continuation byte is 80..BF.
  let size: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) size = 2;
  else if (lead >= 0xe0 && lead <= 0xef) size = 3;
  else if (lead >= 0xf0 && lead <= 0xf4) size = 4;
  else return 0;
  if (lead === 0xe0) low = 0xa0;
  else if (lead === 0xed) high = 0x9f;
  else if (lead === 0xf0) low = 0x90;
  else if (lead === 0xf4) high = 0x8f;
  const second = bytes[i + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let k = 2; k < size; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return size;
}
