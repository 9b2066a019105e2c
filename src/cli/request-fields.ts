import { nameLike, usageError } from './cli-error.js';
import { repeatsKey } from './duplicate-keys.js';

/** One field of a JSON request on stdin; `schemas/` holds the same rules as JSON Schema. */
export interface RequestField {
  readonly help: string;
  readonly required?: boolean;
  /** The accepted values as usage messages state them, e.g. `a string or null`. */
  readonly expected: string;
  readonly accepts: (value: unknown) => boolean;
}

export type RequestFields = Readonly<Record<string, RequestField>>;

/** A request as decoded from stdin: a plain JSON object whose fields passed their checks. */
export type JsonRequest = Readonly<Record<string, unknown>>;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes stdin as one JSON object and checks it against the command's declared fields, so a
 * type error is a usage error naming its field, never a lifecycle refusal. An unknown field is
 * refused rather than ignored: a misspelt `previous` must not turn into a plan without one.
 */
export function decodeRequest(bytes: Uint8Array, fields: RequestFields): JsonRequest {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw usageError('request-not-utf8', 'the request on stdin is not UTF-8 text');
  }
  if (text.trim() === '') {
    throw usageError('request-empty', 'no request on stdin: expected one JSON object');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the input, so it is not passed on.
    throw usageError('request-not-json', 'the request on stdin is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError('request-not-object', 'the request on stdin is not a JSON object');
  }
  if (repeatsKey(text)) {
    throw usageError('request-duplicate-key', 'an object in the request on stdin repeats a key');
  }
  const request = value as JsonRequest;
  for (const key of Object.keys(request)) {
    if (!Object.hasOwn(fields, key)) throw unknownField(key, fields);
  }
  for (const [name, field] of Object.entries(fields)) {
    const given = Object.hasOwn(request, name);
    if (!given && field.required === true) {
      throw usageError('field-required', `the request needs the field \`${name}\``, {
        field: name,
      });
    }
    if (given && !field.accepts(request[name])) {
      throw usageError('field-type', `the request field \`${name}\` must be ${field.expected}`, {
        field: name,
      });
    }
  }
  return request;
}

function unknownField(key: string, fields: RequestFields) {
  const name = nameLike(key);
  const known = Object.keys(fields).join(', ');
  return usageError(
    'field-unknown',
    `the request has an unknown field${name === undefined ? '' : ` \`${name}\``}; it takes ${known}`,
    name === undefined ? {} : { field: name },
  );
}

/** Field checks shared by the commands' declarations. */
export const accepts = {
  stringOrNull: (value: unknown): boolean => value === null || typeof value === 'string',
  boolean: (value: unknown): boolean => typeof value === 'boolean',
  string: (value: unknown): boolean => typeof value === 'string',
  objectOrNull: (value: unknown): boolean =>
    value === null || (typeof value === 'object' && !Array.isArray(value)),
  object: (value: unknown): boolean =>
    typeof value === 'object' && value !== null && !Array.isArray(value),
};
