import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { UnsupportedError } from '../errors/errors.js';

/**
 * Strict UTF-8 to text. Overlong forms, surrogate code points, truncated sequences and bytes
 * 0xF5..0xFF are refused, as is a leading byte-order mark. Because strict UTF-8 never encodes
 * a lone surrogate, text and bytes map one to one and offsets into the text are exact splices.
 */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new UnsupportedError('document-bom');
  }
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Pure ASCII is by far the common case, and latin1 decoding of it is a plain copy.
  if (isAscii(view)) return view.toString('latin1');
  if (!isUtf8(view)) throw new UnsupportedError('document-not-utf8');
  return view.toString('utf8');
}

/** UTF-8 length of `text[0, end)`; `end` must not split a surrogate pair. */
export function utf8Length(text: string, end: number): number {
  return Buffer.byteLength(text.slice(0, end), 'utf8');
}
