import { expect } from 'vitest';
import type { CursorHooksError, ErrorKind } from '../../src/errors/errors.js';
import type { ErrorReason } from '../../src/errors/reasons.js';

/** Asserts `fn` throws `kind` carrying exactly `reason`; both halves are part of the contract. */
export function expectRefusal(fn: () => unknown, kind: ErrorKind, reason: ErrorReason): void {
  expect(fn).toThrow(kind);
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect((caught as CursorHooksError).reason).toBe(reason);
}
