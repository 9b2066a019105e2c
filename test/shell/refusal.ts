import { expect } from 'vitest';
import type { CursorHooksError, ErrorKind } from '../../src/errors/errors.js';
import type { ErrorReason } from '../../src/errors/reasons.js';
import { thrownBy } from '../support/common.js';

/** Asserts `fn` throws `kind` carrying exactly `reason`; both halves are part of the contract. */
export function expectRefusal(fn: () => unknown, kind: ErrorKind, reason: ErrorReason): void {
  expect(fn).toThrow(kind);
  expect((thrownBy(fn) as CursorHooksError).reason).toBe(reason);
}
