import type { JsonRequest } from './json-request.js';
import { UsageError } from './usage-error.js';

// In `u` mode a paired surrogate is one astral code point, so this matches only unpaired ones.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/**
 * The document bytes from `document` (text) or `documentBase64`; null, absent or empty means
 * the file is absent. These are the CLI's own encodings, so a wrong type is a usage error, not
 * something to hand to the planner.
 */
export function readDocumentField(request: JsonRequest): Uint8Array | null {
  const text = request.document ?? null;
  const base64 = request.documentBase64 ?? null;
  if (text !== null && base64 !== null) {
    throw new UsageError('the request gives both document and documentBase64; give one');
  }
  if (base64 !== null) return decodeBase64(base64);
  if (text !== null) return encodeText(text);
  return null;
}

function encodeText(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new UsageError('document is not a string or null');
  // TextEncoder would silently write U+FFFD, planning on bytes the caller never had.
  if (UNPAIRED_SURROGATE.test(text)) {
    throw new UsageError('document holds an unpaired surrogate; send such bytes as documentBase64');
  }
  return new TextEncoder().encode(text);
}

function decodeBase64(base64: unknown): Uint8Array {
  if (typeof base64 !== 'string') throw new UsageError('documentBase64 is not a string or null');
  const bytes = Buffer.from(base64, 'base64');
  // Buffer skips foreign characters and accepts base64url; only canonical padded standard
  // base64 re-encodes to itself, so anything else is refused instead of half-decoded.
  if (bytes.toString('base64') !== base64) {
    throw new UsageError('documentBase64 is not canonical padded base64 without line breaks');
  }
  return bytes;
}
