import type { HookSpec } from '../domain/hook-spec.js';
import type { Receipt, ReceiptJSON } from '../domain/receipt.js';
import type { CursorHooksError } from '../errors/errors.js';
import { ConflictError } from '../errors/errors.js';
import { MAX_DOCUMENT_BYTES } from '../limits.js';
import type { Operation } from './operation.js';

export interface PlanRequest {
  /** `undefined`, `null` or length 0: the file is absent. */
  readonly document?: Uint8Array | null | undefined;
  readonly operation: Operation;
  readonly specs?: readonly HookSpec[] | undefined;
  readonly previous?: Receipt | ReceiptJSON | null | undefined;
  /** A registered shell contract id. */
  readonly shell?: string | undefined;
  /** The host's current no-follow executable and selector checks passed. */
  readonly executableVerified?: boolean | undefined;
}

export interface PlanResult {
  /** The new bytes; the input bytes on no-op and refusal. */
  readonly desired: Uint8Array;
  /** Undefined after Remove and on refusal. */
  readonly receipt: Receipt | undefined;
  /** The document bytes are unchanged (the receipt may still be refreshed). */
  readonly noOp: boolean;
  /** True exactly when `error` is set. */
  readonly conflict: boolean;
  readonly error: CursorHooksError | undefined;
}

/** A request read exactly once: getters and proxies cannot answer differently later. */
export interface RequestFields {
  readonly document: Uint8Array;
  readonly operation: unknown;
  readonly specs: unknown;
  readonly previous: unknown;
  readonly shell: unknown;
  readonly executableVerified: unknown;
}

const ABSENT = new Uint8Array(0);

/** The request as an object; anything else is `request-malformed`. */
function requestObject(request: unknown): Record<keyof RequestFields, unknown> {
  if (typeof request !== 'object' || request === null) throw new ConflictError('request-malformed');
  return request as Record<keyof RequestFields, unknown>;
}

/**
 * The document as read once: a plain view for every check, and the host's own object, which
 * only a refusal for size hands back (SPEC §4: the very same object, never an oversized copy).
 */
export interface DocumentRead {
  readonly bytes: Uint8Array;
  readonly given: Uint8Array;
}

/**
 * The request's document, read first and on its own: once it is read, a refusal can hand it
 * back whichever field fails afterwards (a throwing getter, a Proxy).
 */
export function readRequestDocument(request: unknown): DocumentRead {
  const given = requestObject(request).document;
  const bytes = readDocument(given);
  return { bytes, given: bytes === ABSENT ? ABSENT : (given as Uint8Array) };
}

/** Every other field, each read once, beside the document already read. */
export function readRequest(request: unknown, document: Uint8Array): RequestFields {
  const { operation, specs, previous, shell, executableVerified } = requestObject(request);
  return { document, operation, specs, previous, shell, executableVerified };
}

// The intrinsic typed-array getters read the internal slots, so a subclass or an own property
// overriding `length`, `buffer` or `byteOffset` is never consulted.
const TYPED_ARRAY_PROTOTYPE: object = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsicGetter = (name: string) =>
  Object.getOwnPropertyDescriptor(TYPED_ARRAY_PROTOTYPE, name)?.get as (this: unknown) => unknown;
const bufferOf = intrinsicGetter('buffer');
const byteOffsetOf = intrinsicGetter('byteOffset');
const byteLengthOf = intrinsicGetter('byteLength');

/**
 * The bytes to plan on, as a plain Uint8Array made from one read of the host's array (a
 * Proxy, which has no typed-array slots, is `document-malformed`). Memory shared with another thread
 * could change under the planner, so it is copied; oversized input is kept as a view, since
 * only its length is ever read.
 */
export function readDocument(document: unknown): Uint8Array {
  if (document === undefined || document === null) return ABSENT;
  if (!(document instanceof Uint8Array)) throw new ConflictError('document-malformed');
  let view: Uint8Array;
  try {
    const buffer = bufferOf.call(document) as ArrayBuffer;
    view = new Uint8Array(
      buffer,
      byteOffsetOf.call(document) as number,
      byteLengthOf.call(document) as number,
    );
  } catch {
    throw new ConflictError('document-malformed');
  }
  const shared = view.buffer instanceof SharedArrayBuffer;
  return shared && view.length <= MAX_DOCUMENT_BYTES ? view.slice() : view;
}

/** Absent optional fields may be written as `undefined` or, from JSON ledgers, `null`. */
export function isOmitted(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
