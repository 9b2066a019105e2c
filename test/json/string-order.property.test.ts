// String comparison on the tape (SPEC §5 key order, SPEC §3 duplicate keys, SPEC §9 linear
// worst case): every way the tape compares two string lexemes (bytes, in place code unit by
// code unit, against decoded text) must agree with comparing the decoded strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadJson } from '../../src/json/load.js';
import { fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import { reasonOf } from './support.js';

const RUNS = fcRuns(300);

// Characters where UTF-8 byte order, code point order and UTF-16 order part ways, the last
// and first code points of each UTF-8 length (U+007F, U+07FF, U+0800, U+FFFF, U+10000), a pair
// sharing its low surrogate with 😀 (🈀), plus the characters with short escapes.
const UNITS = [
  'a',
  'b',
  '/',
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u007f',
  'é',
  '\u07ff',
  '\u0800',
  '中',
  '\ue000',
  '\uffff',
  '\u{10000}',
  '😀',
  '😁',
  '🈀',
];
const LONE = ['\ud800', '\udc00', '\udbff'];

const textArb = fc
  .array(fc.constantFrom(...UNITS, ...LONE), { maxLength: 24 })
  .map((units) => units.join(''));

type Spelling = 'stringify' | 'unicode' | 'UNICODE' | 'slash';

/**
 * A lexeme for `text`: as JSON.stringify writes it (its own canonical form), every code unit
 * as `\uxxxx` or as `\uXXXX` (hex digits order differently from the characters they spell
 * across the cases), or JSON.stringify's with each `/` written `\/`.
 */
const spell = (text: string, spelling: Spelling): string => {
  if (spelling === 'stringify') return JSON.stringify(text);
  if (spelling === 'slash') return JSON.stringify(text).replaceAll('/', '\\/');
  const hex = [...Array(text.length).keys()].map((i) =>
    text.charCodeAt(i).toString(16).padStart(4, '0'),
  );
  return `"${hex.map((digits) => `\\u${spelling === 'UNICODE' ? digits.toUpperCase() : digits}`).join('')}"`;
};
const spellingArb = fc.constantFrom<Spelling>('stringify', 'unicode', 'UNICODE', 'slash');

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Filler keys no generated text can equal (`#` is in no unit): they push an object past the
 * insertion sort into the large sort. */
const fillers = (count: number) => Array.from({ length: count }, (_, i) => `"#${i}":0`);

/** The two lexemes loaded as an array: their tape and the indices of both strings. */
function loadPair(lexemeA: string, lexemeB: string) {
  const tree = loadJson(utf8(`[${lexemeA},${lexemeB}]`));
  const first = tree.root.index + 1;
  return { tape: tree.root.tape, first, second: tree.root.tape.next(first) };
}

/** compareStrings, both ways round, orders the lexemes of `a` and `b` like `a` and `b`. */
function expectOrdered(lexemeA: string, lexemeB: string, a: string, b: string, label?: string) {
  const { tape, first, second } = loadPair(lexemeA, lexemeB);
  expect(sign(tape.compareStrings(first, second)), label).toBe(order(a, b));
  expect(sign(tape.compareStrings(second, first)), label).toBe(order(b, a));
}

/**
 * As keys of a small object, and of one past the insertion sort, the two lexemes are refused as
 * a repeat exactly when they decode alike.
 */
function expectRepeatFound(lexemeA: string, lexemeB: string, equal: boolean) {
  for (const extra of [0, 9]) {
    const members = [`${lexemeA}:0`, `${lexemeB}:1`, ...fillers(extra)];
    const object = () => loadJson(utf8(`{${members.join(',')}}`));
    if (equal) expect(reasonOf(object)).toBe('json-duplicate-key');
    else expect(object).not.toThrow();
  }
}

describe('tape string comparison agrees with decoded strings', () => {
  it(
    'orders and equates any two lexemes, plain, escaped, short or long, like their decoded text, or keys sort or collide wrongly',
    () => {
      fc.assert(
        fc.property(
          textArb,
          textArb,
          spellingArb,
          spellingArb,
          // A long shared prefix sends the search for the first differing byte through its
          // native halving, and a long run of backslashes before it to decoded comparison.
          fc.constantFrom('p', '\\', 'é', '😀'),
          fc.nat({ max: 200 }),
          (x, y, spellX, spellY, unit, pad) => {
            const prefix = unit.repeat(pad);
            const [a, b] = [prefix + x, prefix + y];
            const [lexemeA, lexemeB] = [spell(a, spellX), spell(b, spellY)];
            expectOrdered(lexemeA, lexemeB, a, b);
            const { tape, first } = loadPair(lexemeA, lexemeB);
            expect(tape.stringEquals(first, b)).toBe(a === b);
            expect(tape.stringValue(first)).toBe(a);
            expectRepeatFound(lexemeA, lexemeB, a === b);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});

// Keys without `\u` or `\/` are compared in place from their first differing byte. Few units,
// chosen to collide there: escapes whose markers differ (`\n` against `\t` or `\"`), a plain
// letter against the same letter as a marker, characters sharing lead bytes (é ê, 😀 😁;
// Ā Ġ differ in a continuation byte whose low bits agree), a pair sharing 😀's low surrogate,
// and the last and first code points of each UTF-8 length.
const IN_PLACE_UNITS = [
  'a',
  'n',
  't',
  '"',
  '\\',
  '\n',
  '\t',
  'é',
  'ê',
  'Ā',
  'Ġ',
  '😀',
  '😁',
  '🈀',
  '\u007f',
  '\u07ff',
  '\u0800',
  '\ue000',
  '\uffff',
  '\u{10000}',
  '/',
];
const inPlaceTextArb = fc
  .array(fc.constantFrom(...IN_PLACE_UNITS), { maxLength: 4 })
  .map((units) => units.join(''));

describe('in-place comparison of lexemes that are their own canonical form', () => {
  it(
    'orders two keys from their first differing byte like their decoded text, after any shared prefix, or a key lands in the wrong place or a repeat goes unseen',
    () => {
      fc.assert(
        fc.property(
          inPlaceTextArb,
          inPlaceTextArb,
          // Backslashes before the difference make it an escape's marker or not; past 64 of
          // them the keys are decoded instead; a long prefix takes the native halving.
          fc.constantFrom('p', '\\', '\n', 'é', '😀'),
          fc.nat({ max: 200 }),
          (x, y, unit, pad) => {
            const [a, b] = [unit.repeat(pad) + x, unit.repeat(pad) + y];
            const [lexemeA, lexemeB] = [JSON.stringify(a), JSON.stringify(b)];
            expectOrdered(lexemeA, lexemeB, a, b);
            expectRepeatFound(lexemeA, lexemeB, a === b);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});

describe('the first differing byte of two long keys', () => {
  // Red: the native halving skips or misplaces a byte, so keys that differ only there compare
  // equal (a false repeated key) or in the wrong order.
  it('is found at every offset of a 300-byte key, or keys differing only there misorder', () => {
    const base = 'k'.repeat(300);
    for (let offset = 0; offset < base.length; offset++) {
      const other = `${base.slice(0, offset)}m${base.slice(offset + 1)}`;
      expectOrdered(JSON.stringify(base), JSON.stringify(other), base, other, `offset ${offset}`);
    }
  });
});

describe('comparisons at the boundaries the in-place reader must get right', () => {
  // Pairs [a, b] of decoded text; each is compared as JSON.stringify spells it, after a
  // prefix that is empty, short, or long enough for the native halving and, of backslashes,
  // past the run the reader counts.
  const pairs: readonly [string, string][] = [
    ['Ā', 'Ġ'], // C4 80 and C4 A0: continuation bytes whose low five bits agree
    ['é', 'ê'],
    ['\u07ff', '\u0800'], // the last two-byte and first three-byte characters
    ['\uffff', '\u{10000}'], // U+FFFF sorts after the high surrogate of U+10000
    ['😀', '🈀'], // the same low surrogate under different high ones
    ['😀', '😁'],
    ['\n', '\t'], // escapes whose markers differ
    ['\\n', '\n'], // a backslash then n, against the escape of a line feed
    ['n', '\n'],
    ['"', '\\'],
    ['a', 'a\n'], // a prefix of the other
    ['\u007f', '\u0080'], // the last one-byte and first two-byte characters
    // The same character of each UTF-8 length, then a difference: the reader must step over
    // exactly its bytes.
    ['\u007fa', '\u007fb'],
    ['\u07ffa', '\u07ffb'],
    ['\uffffa', '\uffffb'],
    ['\u{10000}a', '\u{10000}b'],
  ];
  const prefixes = [
    '',
    'pp',
    'pé',
    'p'.repeat(300),
    '\\'.repeat(3),
    '\\'.repeat(70),
    'é'.repeat(90),
  ];

  it('orders each pair like its decoded text after every prefix, or a character, escape or surrogate pair at a boundary misorders', () => {
    for (const [x, y] of pairs) {
      for (const prefix of prefixes) {
        const [a, b] = [prefix + x, prefix + y];
        const [lexemeA, lexemeB] = [JSON.stringify(a), JSON.stringify(b)];
        const label = `${lexemeA} vs ${lexemeB}`;
        expectOrdered(lexemeA, lexemeB, a, b, label);
        const { tape, first } = loadPair(lexemeA, lexemeB);
        expect(tape.stringEquals(first, b), label).toBe(false);
        expect(tape.stringEquals(first, a), label).toBe(true);
      }
    }
  });

  it('compares lexemes spelt with upper- and lowercase hex digits by what they spell, or \\u003A sorts after \\u003b', () => {
    const tree = loadJson(utf8(String.raw`["\u003A","\u003b","\u00E9","\u00e9"]`));
    const tape = tree.root.tape;
    const [colon, semicolon, upper, lower] = [1, 2, 3, 4].map((i) => tree.root.index + i) as [
      number,
      number,
      number,
      number,
    ];
    expect(sign(tape.compareStrings(colon, semicolon))).toBe(-1);
    expect(tape.compareStrings(upper, lower)).toBe(0);
  });
});
