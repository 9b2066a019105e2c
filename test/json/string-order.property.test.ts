// String comparison on the tape (SPEC §5 key order, SPEC §3 duplicate keys, SPEC §9 linear
// worst case): every way the tape compares two string lexemes (bytes, in place code unit by
// code unit, against decoded text) must agree with comparing the decoded strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadJson } from '../../src/json/load.js';
import { fcRuns, propertyTimeout, utf8 } from '../support/common.js';

const RUNS = fcRuns(300);

// Characters where UTF-8 byte order, code point order and UTF-16 order part ways, plus the
// characters with short escapes.
const UNITS = ['a', 'b', '/', '"', '\\', '\n', '\u0000', 'é', '中', '\ue000', '\uffff', '😀', '😁'];
const LONE = ['\ud800', '\udc00', '\udbff'];

const textArb = fc
  .array(fc.constantFrom(...UNITS, ...LONE), { maxLength: 24 })
  .map((units) => units.join(''));

/** A lexeme for `text`: as JSON.stringify writes it, or every code unit as `\uXXXX`. */
const spell = (text: string, escapeAll: boolean): string =>
  escapeAll
    ? `"${[...Array(text.length).keys()]
        .map((i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`)
        .join('')}"`
    : JSON.stringify(text);

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

describe('tape string comparison agrees with decoded strings', () => {
  it(
    'orders and equates any two lexemes, plain, escaped, short or long, like their decoded text, or keys sort or collide wrongly',
    () => {
      fc.assert(
        fc.property(
          textArb,
          textArb,
          fc.boolean(),
          fc.boolean(),
          fc.nat({ max: 40 }),
          (x, y, escapeX, escapeY, pad) => {
            // A shared prefix pushes some lexemes past the in-place comparison's length.
            const prefix = 'p'.repeat(pad);
            const [a, b] = [prefix + x, prefix + y];
            const tree = loadJson(utf8(`[${spell(a, escapeX)},${spell(b, escapeY)}]`));
            const tape = tree.root.tape;
            const first = tree.root.index + 1;
            const second = tape.next(first);
            expect(sign(tape.compareStrings(first, second))).toBe(order(a, b));
            expect(sign(tape.compareStrings(second, first))).toBe(order(b, a));
            expect(sign(tape.compareDecoded(first, second))).toBe(order(a, b));
            expect(tape.sameString(first, second)).toBe(a === b);
            expect(tape.stringEquals(first, b)).toBe(a === b);
            expect(tape.stringValue(first)).toBe(a);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});
