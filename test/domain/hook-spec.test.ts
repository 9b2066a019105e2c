// readExactRecord and readHookSpec on their own: the planner's request and receipt checks sit
// on top of them, and a receipt's catch-all would hide a TypeError that slipped through here.

import { describe, expect, it } from 'vitest';
import { readExactRecord, readHookSpec } from '../../src/domain/hook-spec.js';
import { ConflictError } from '../../src/errors/errors.js';
import { thrownBy } from '../support/common.js';

const KEYS = ['executable', 'selector'] as const;
const SPEC = { executable: '/opt/agent', selector: '/opt/stop.json' };

describe('readExactRecord', () => {
  it.each([
    ['null', null],
    ['a string', 'executable'],
    ['a number', 2],
    ['an array', ['/opt/agent', '/opt/stop.json']],
    ['a wrong key in place of a right one', { executable: 'a', selectorX: 'b' }],
    ['a symbol key in place of a right one', { executable: 'a', [Symbol('selector')]: 'b' }],
    ['an extra key', { ...SPEC, name: 'x' }],
    ['a missing key', { executable: 'a' }],
  ])(
    'refuses %s with the given reason, or a TypeError or a foreign key gets past the check',
    (_name, value) => {
      const error = thrownBy(() => readExactRecord(value, KEYS, 'receipt-malformed'));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ reason: 'receipt-malformed' });
    },
  );

  it('returns each wanted value, or a plain object with exactly the keys is refused', () => {
    expect(readExactRecord({ selector: 2, executable: 1 }, KEYS, 'spec-malformed')).toEqual({
      executable: 1,
      selector: 2,
    });
  });
});

describe('readHookSpec', () => {
  it.each([
    ['executable', { ...SPEC, executable: 1 }],
    ['selector', { ...SPEC, selector: 1 }],
  ])(
    'refuses a non-string %s as spec-malformed, or a number reaches the shell contract',
    (_field, value) => {
      expect(thrownBy(() => readHookSpec(value))).toMatchObject({ reason: 'spec-malformed' });
    },
  );

  it('returns a frozen copy, or a caller can change the spec after validation', () => {
    const source = { ...SPEC };
    const spec = readHookSpec(source);
    source.executable = '/tmp/evil';
    expect(spec).toEqual(SPEC);
    expect(Object.isFrozen(spec)).toBe(true);
  });
});
