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

export function readRequest(request: unknown): RequestFields {
  if (typeof request !== 'object' || request === null) throw new ConflictError('request-malformed');
  const { document, operation, specs, previous, shell, executableVerified } = request as Record<
    keyof RequestFields,
    unknown
  >;
  return {
    document: readDocument(document),
    operation,
    specs,
    previous,
    shell,
    executableVerified,
  };
}

/**
 * The bytes to plan on. Memory shared with another thread could change under the planner, so
 * it is copied first; oversized input is kept as is, since only its length is ever read.
 */
export function readDocument(document: unknown): Uint8Array {
  if (document === undefined || document === null) return ABSENT;
  if (!(document instanceof Uint8Array)) throw new ConflictError('request-malformed');
  const shared = document.buffer instanceof SharedArrayBuffer;
  return shared && document.length <= MAX_DOCUMENT_BYTES ? new Uint8Array(document) : document;
}

/** Absent optional fields may be written as `undefined` or, from JSON ledgers, `null`. */
export function isOmitted(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
