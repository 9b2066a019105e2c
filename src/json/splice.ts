import { Buffer } from 'node:buffer';
import type { ByteEdit } from './edit.js';

/**
 * New bytes: the input bytes before and after the edit, copied verbatim, around the encoded
 * insert. The input array is only read; the result never shares memory with it.
 */
export function spliceBytes(bytes: Uint8Array, edit: ByteEdit): Uint8Array {
  const insert = Buffer.from(edit.insert);
  const out = new Uint8Array(edit.start + insert.length + (bytes.length - edit.end));
  out.set(bytes.subarray(0, edit.start), 0);
  out.set(insert, edit.start);
  out.set(bytes.subarray(edit.end), edit.start + insert.length);
  return out;
}
