import { ConflictError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';

/** What the host asks to run: `<executable> cursor-event stop --binding <selector>`. */
export interface HookSpec {
  readonly executable: string;
  readonly selector: string;
}

const SPEC_KEYS = ['executable', 'selector'] as const;

/**
 * A frozen copy of exactly `{executable, selector}` strings. Each property is read once, so a
 * getter cannot show one value to validation and another to rendering.
 */
export function readHookSpec(value: unknown, reason: ErrorReason = 'spec-malformed'): HookSpec {
  const record = readExactRecord(value, SPEC_KEYS, reason);
  const { executable, selector } = record;
  if (typeof executable !== 'string' || typeof selector !== 'string') {
    throw new ConflictError(reason);
  }
  return Object.freeze({ executable, selector });
}

export function sameSpec(a: HookSpec, b: HookSpec): boolean {
  return a.executable === b.executable && a.selector === b.selector;
}

/**
 * The values of a plain object whose own keys are exactly `keys` (no extras, none missing, and
 * a symbol key is never one of them); anything else is refused with `reason`.
 */
export function readExactRecord<K extends string>(
  value: unknown,
  keys: readonly K[],
  reason: ErrorReason,
): Record<K, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConflictError(reason);
  }
  const own = Reflect.ownKeys(value);
  if (own.length !== keys.length) throw new ConflictError(reason);
  for (const key of own) {
    if (!keys.includes(key as K)) throw new ConflictError(reason);
  }
  const record = {} as Record<K, unknown>;
  for (const key of keys) record[key] = (value as Record<K, unknown>)[key];
  return record;
}
