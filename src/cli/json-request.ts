import { UsageError } from './usage-error.js';

/** A request as decoded from stdin: a plain JSON object whose keys the command knows. */
export type JsonRequest = Readonly<Record<string, unknown>>;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes stdin as one JSON object holding only `fields`. An unknown field is refused rather
 * than ignored, so a misspelt `previous` cannot silently turn into a plan without a receipt.
 * Field values are not checked here: the planner judges them and names its reason.
 */
export function decodeJsonRequest(bytes: Uint8Array, fields: readonly string[]): JsonRequest {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new UsageError('the request is not UTF-8');
  }
  if (text.trim() === '') throw new UsageError('no request on stdin: expected one JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the input, so it is not passed on.
    throw new UsageError('the request is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('the request is not a JSON object');
  }
  if (Object.keys(value).some((key) => !fields.includes(key))) {
    throw new UsageError('the request holds a field this command does not take (see --help)');
  }
  return value as JsonRequest;
}
