import { MAX_DOCUMENT_BYTES } from '../limits.js';
import { CliError, usageError } from './cli-error.js';
import type { CliInput } from './io.js';

const MiB = 1024 * 1024;

/**
 * A 4 MiB document still fits as base64, or as text escaped the way JSON.stringify escapes a
 * valid document (at most two characters a byte: quotes, backslashes, tabs, line ends), with a
 * mebibyte to spare for the other fields. Encoders that escape all non-ASCII as `\uXXXX` can
 * need three characters a byte; such hosts send large documents as documentBase64.
 */
export const MAX_REQUEST_BYTES = 2 * MAX_DOCUMENT_BYTES + MiB;

/** Reads all of stdin, but stops pulling chunks as soon as the request passes the cap. */
export async function readRequestBytes(input: CliInput): Promise<Uint8Array> {
  if (input instanceof Uint8Array) {
    if (input.length > MAX_REQUEST_BYTES) throw tooLarge();
    return input;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of input) {
      total += chunk.length;
      // Leaving the loop returns the iterator, which for a process stream destroys it.
      if (total > MAX_REQUEST_BYTES) break;
      chunks.push(chunk);
    }
  } catch {
    throw new CliError('io', 'stdin-unreadable', 'the request could not be read from stdin');
  }
  if (total > MAX_REQUEST_BYTES) throw tooLarge();
  return Buffer.concat(chunks, total);
}

function tooLarge(): CliError {
  return usageError(
    'request-too-large',
    `the request on stdin exceeds ${MAX_REQUEST_BYTES / MiB} MiB`,
  );
}
