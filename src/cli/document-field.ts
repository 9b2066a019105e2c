import { usageError } from './cli-error.js';
import { accepts, type JsonRequest, type RequestFields } from './request-fields.js';

// In `u` mode a paired surrogate is one astral code point, so this matches only unpaired ones.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** The two ways a request carries a document, shared by `plan` and `verify`. */
export const DOCUMENT_FIELDS: RequestFields = {
  document: {
    help: "the file's text; null or absent when the file does not exist",
    expected: 'a string or null',
    accepts: accepts.stringOrNull,
  },
  documentBase64: {
    help: "the file's bytes as padded base64 instead (give one of the two)",
    expected: 'a string of padded base64, or null',
    accepts: accepts.stringOrNull,
  },
};

/**
 * The document bytes from `document` (text) or `documentBase64`; null, absent or empty means
 * the file is absent. The field types were checked when the request was decoded.
 */
export function readDocumentField(request: JsonRequest): Uint8Array | null {
  const text = (request.document ?? null) as string | null;
  const base64 = (request.documentBase64 ?? null) as string | null;
  if (text !== null && base64 !== null) {
    throw usageError(
      'field-conflict',
      'the request gives both `document` and `documentBase64`; give one',
      { field: 'documentBase64' },
    );
  }
  if (base64 !== null) return decodeBase64(base64);
  if (text !== null) return encodeText(text);
  return null;
}

function encodeText(text: string): Uint8Array {
  // TextEncoder would silently write U+FFFD, planning on bytes the caller never had.
  if (UNPAIRED_SURROGATE.test(text)) {
    throw usageError(
      'field-encoding',
      'the request field `document` holds an unpaired surrogate; send such bytes as `documentBase64`',
      { field: 'document' },
    );
  }
  return new TextEncoder().encode(text);
}

function decodeBase64(base64: string): Uint8Array {
  const bytes = Buffer.from(base64, 'base64');
  // Buffer skips foreign characters and accepts base64url; only canonical padded standard
  // base64 re-encodes to itself, so anything else is refused instead of half-decoded.
  if (bytes.toString('base64') !== base64) {
    throw usageError(
      'field-encoding',
      'the request field `documentBase64` is not canonical padded base64 without line breaks',
      { field: 'documentBase64' },
    );
  }
  return bytes;
}
