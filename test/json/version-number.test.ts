// `version` must be exactly 1 by exact decimal arithmetic on the lexeme (SPEC §3).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadJson } from '../../src/json/load.js';
import { isExactlyOne } from '../../src/json/number.js';
import { fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import { numberLexemeArb } from './support.js';

/** Exact value test with BigInt: digits × 10^(exponent − fraction length) === 1. */
function denotesOne(lexeme: string): boolean {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  if (match === null) throw new Error(`not a number lexeme: ${lexeme}`);
  const [, sign, integer = '', fraction = '', exponent = '0'] = match;
  if (sign === '-') return false;
  const mantissa = BigInt(integer + fraction);
  const shift = BigInt(exponent) - BigInt(fraction.length);
  return shift >= 0n ? mantissa * 10n ** shift === 1n : mantissa === 10n ** -shift;
}

const RUNS = fcRuns(300);

describe('isExactlyOne', () => {
  const ones = [
    '1',
    '1.0',
    '1e0',
    '1E0',
    '1e+0',
    '1e-0',
    '1.00E+00',
    '10e-1',
    '0.1E1',
    '100e-2',
    '0.01e2',
    '1.000000000000000000000000000000',
    '10000000000000000000000e-22',
    '0.0000000000000000000001e22',
    '1e-00000000000000000000',
    '1e0000000000000000000000000000',
  ];

  it.each(ones)('is true for %s, or an exact spelling of 1 is refused as a version', (lexeme) => {
    expect(isExactlyOne(lexeme)).toBe(true);
  });

  const notOnes = [
    '1.1',
    '2',
    '0',
    '-0',
    '-1',
    '-1.0',
    '-1e0',
    '1e1',
    '0.1',
    '11',
    '10',
    '1.01',
    '0.11e1',
    '101e-2',
    '1e-999999999999',
    '1e999999999999',
    '1e+999999999999',
    '10e-999999999999',
    '0.0',
    '0e1',
    '1.0000000000000000000000000000001',
    '0.99999999999999999999999999',
    '1000000000000000000000e-22',
    '100000000000000000000000e-22',
  ];

  it.each(notOnes)('is false for %s, or a value other than 1 passes as version 1', (lexeme) => {
    expect(isExactlyOne(lexeme)).toBe(false);
  });

  it('is false for 1.0000000000000001 although it parses to the double 1, or floating point decides', () => {
    expect(Number('1.0000000000000001')).toBe(1);
    expect(isExactlyOne('1.0000000000000001')).toBe(false);
    expect(Number('0.99999999999999999')).toBe(1);
    expect(isExactlyOne('0.99999999999999999')).toBe(false);
  });

  it('decides a million-zero lexeme 1000…0e-1000000 as true, or long lexemes are refused or converted', () => {
    expect(isExactlyOne(`1${'0'.repeat(1_000_000)}e-1000000`)).toBe(true);
    expect(isExactlyOne(`1${'0'.repeat(1_000_000)}e-999999`)).toBe(false);
    expect(isExactlyOne(`0.${'0'.repeat(999_999)}1e1000000`)).toBe(true);
  });

  it('reads an exponent of a million digits by its value, or leading zeros in it or its length decide', () => {
    expect(isExactlyOne(`1e${'0'.repeat(1_000_000)}`)).toBe(true);
    expect(isExactlyOne(`10e-${'0'.repeat(999_999)}1`)).toBe(true);
    expect(isExactlyOne(`10e-${'0'.repeat(999_999)}2`)).toBe(false);
    expect(isExactlyOne(`1e${'9'.repeat(1_000_000)}`)).toBe(false);
  });

  it('decides the version of a loaded document from its exact lexeme, or the tree loses the spelling', () => {
    const versionOf = (text: string) => {
      const root = loadJson(utf8(text)).root;
      const member = root.kind === 'object' ? root.members[0] : undefined;
      return member?.value.kind === 'number' ? isExactlyOne(member.value.lexeme) : 'not a number';
    };
    expect(versionOf('{"version":1.00E+00}')).toBe(true);
    expect(versionOf('{"version":1.0000000000000001}')).toBe(false);
    expect(versionOf('{"version":"1"}')).toBe('not a number');
  });

  it(
    'equals exact arithmetic for m·10^e with small integers, or some mantissa/exponent pair is misjudged',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.integer({ min: 0, max: 1000 }),
            fc.constantFrom(1, 10, 100, 1000, 10_000_000),
          ),
          fc.integer({ min: -12, max: 12 }),
          (m, e) => {
            const lexeme = `${m}e${e}`;
            const exact =
              e >= 0 ? BigInt(m) * 10n ** BigInt(e) === 1n : BigInt(m) === 10n ** BigInt(-e);
            expect(isExactlyOne(lexeme)).toBe(exact);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it(
    'equals exact arithmetic on every valid lexeme shape, or fraction/exponent handling is wrong',
    () => {
      // 1 written with zeros around it (0.0010e3, 100e-2), sometimes with an off-by-one exponent.
      const oneish = fc
        .record({
          leadingZeros: fc.nat({ max: 6 }),
          trailingZeros: fc.nat({ max: 6 }),
          asFraction: fc.boolean(),
          shift: fc.oneof(fc.constant(0), fc.integer({ min: -2, max: 2 })),
          marker: fc.constantFrom('e', 'E'),
          plus: fc.boolean(),
        })
        .map(({ leadingZeros, trailingZeros, asFraction, shift, marker, plus }) => {
          const tail = '0'.repeat(trailingZeros);
          const body = asFraction ? `0.${'0'.repeat(leadingZeros)}1${tail}` : `1${tail}`;
          const exponent = (asFraction ? leadingZeros + 1 : -trailingZeros) + shift;
          return `${body}${marker}${exponent < 0 ? '-' : plus ? '+' : ''}${Math.abs(exponent)}`;
        });
      fc.assert(
        fc.property(fc.oneof(numberLexemeArb, oneish), (lexeme) => {
          expect(isExactlyOne(lexeme)).toBe(denotesOne(lexeme));
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});
