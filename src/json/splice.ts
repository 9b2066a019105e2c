import { Buffer } from 'node:buffer';
import type { TextEdit } from './edit.js';
import { utf8Length } from './utf8.js';

/**
 * New bytes: the input bytes before and after the edit, copied verbatim, around the encoded
 * insert. The input array is only read; the result never shares memory with it.
 */
export function spliceBytes(bytes: Uint8Array, text: string, edit: TextEdit): Uint8Array {
  // Text and bytes have the same length exactly when the document is ASCII.
  const ascii = text.length === bytes.length;
  const start = ascii ? edit.start : utf8Length(text, edit.start);
  const end = ascii ? edit.end : utf8Length(text, edit.end);
  const insert = Buffer.from(edit.insert, 'utf8');
  const out = new Uint8Array(start + insert.length + (bytes.length - end));
  out.set(bytes.subarray(0, start), 0);
  out.set(insert, start);
  out.set(bytes.subarray(end), start + insert.length);
  return out;
}
