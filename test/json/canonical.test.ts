// Canonical form and digests (SPEC §5): what must not and what must change a digest.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalString, writeCanonical } from '../../src/json/canonical.js';
import { type DigestDomain, digestOf } from '../../src/json/digest.js';

/** SPEC §5: `sha256:` + 64 lowercase hex. */
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The canonical bytes of `node`, written through a buffer of `size` bytes. */
function canonicalizeThrough(node: JsonNode, size: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const rest = writeCanonical(node, new Uint8Array(size), (full) => {
    chunks.push(full.slice());
  });
  return Buffer.concat([...chunks, rest]);
}

/**
 * The canonical bytes of `node`. Every test also writes them through buffers of 2 and 7 bytes,
 * so it goes red when an escape, a copied run or a closing bracket is lost where a buffer fills.
 */
function canonicalize(node: JsonNode): Uint8Array {
  const whole = canonicalizeThrough(node, node.end - node.start + 64);
  for (const size of [2, 7]) expect(hex(canonicalizeThrough(node, size))).toBe(hex(whole));
  return whole;
}

import { loadJson } from '../../src/json/load.js';
import type { JsonNode, JsonTree } from '../../src/json/tree.js';
import { decodeStrict, fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import { modelArb, render, specCanonical, specCanonicalString, stringValueArb } from './support.js';

const load = (text: string): JsonTree => loadJson(utf8(text));
/** Canonical bytes must be well-formed UTF-8: a fatal decoder turns a bad byte into a failure. */
const canonOf = (tree: JsonTree): string => decodeStrict(canonicalize(tree.root));
const canon = (text: string) => canonOf(load(text));
const digest = (domain: DigestDomain, text: string) => {
  const tree = load(text);
  return digestOf(domain, tree.root);
};
const remainder = (text: string) => digest('remainder', text);
const RUNS = fcRuns(200);

describe('canonical string escaping (SPEC §5)', () => {
  const cases: readonly [string, string, string][] = [
    ['a quote', '"', '"\\""'],
    ['a backslash', '\\', '"\\\\"'],
    ['the five short control escapes', '\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['U+0001 as lowercase \\u0001', '\u0001', '"\\u0001"'],
    ['NUL', '\u0000', '"\\u0000"'],
    ['U+000B and U+001F in lowercase hex', '\u000b\u001f', '"\\u000b\\u001f"'],
    ['a slash, literally', '/', '"/"'],
    ['DEL, literally', '\u007f', '"\u007f"'],
    ['U+2028 and U+2029, literally', '\u2028\u2029', '"\u2028\u2029"'],
    ['non-ASCII, literally', 'é中', '"é中"'],
    ['a surrogate pair, literally', '😀', '"😀"'],
    ['a lone low surrogate as lowercase \\udc00', '\udc00', '"\\udc00"'],
    ['a lone high surrogate as lowercase \\udbff', '\udbff', '"\\udbff"'],
    ['a reversed pair as two escapes', '\ude00\ud83d', '"\\ude00\\ud83d"'],
    ['a high surrogate before a letter', '\ud800a', '"\\ud800a"'],
    ['U+FFFD, literally', '\ufffd', '"\ufffd"'],
  ];

  it.each(cases)('writes %s, or canonical escaping drifted from SPEC §5', (_label, value, out) => {
    expect(canonicalString(value)).toBe(out);
  });

  it(
    'matches the SPEC §5 escaping for random strings, or some code unit is escaped differently',
    () => {
      fc.assert(
        fc.property(stringValueArb, (value) => {
          expect(canonicalString(value)).toBe(specCanonicalString(value));
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});

describe('canonical form', () => {
  it('drops whitespace, sorts members, un-escapes strings and keeps lexemes, or the form is not canonical', () => {
    expect(
      canon(' {\n "b" : [ 1.0 , "\\u0063\\/" ] ,\t"a":\r-0E+1 , "c":{"y":null,"x":true}}\n'),
    ).toBe('{"a":-0E+1,"b":[1.0,"c/"],"c":{"x":true,"y":null}}');
  });

  it('sorts keys by UTF-16 code units, or keys are sorted by code point or locale', () => {
    // U+FFFF sorts after the surrogates of U+1F600 by code unit, before it by code point.
    expect(canon('{"\\uffff":1,"😀":2,"a":3,"B":4,"aa":5,"":6}')).toBe(
      '{"":6,"B":4,"a":3,"aa":5,"😀":2,"\uffff":1}',
    );
  });

  it('sorts objects of more than 16 keys, escaped and plain, or digests of large objects depend on member order', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const spelled = (key: string, i: number) => (i % 3 === 0 ? `\\u006b${key.slice(1)}` : key);
    const reversed = [...keys]
      .reverse()
      .map((key, i) => `"${spelled(key, i)}":${Number(key.slice(1))}`);
    expect(canon(`{${reversed.join(',')}}`)).toBe(
      `{${keys.map((key) => `"${key}":${Number(key.slice(1))}`).join(',')}}`,
    );
  });

  it.each([
    ['U+10000, the first pair', '"\\ud800\\udc00"', '"\u{10000}"'],
    ['U+10FFFF, the last pair', '"\\udbff\\udfff"', '"\u{10ffff}"'],
    ['U+D7FF, below the surrogates', '"\\ud7ff"', '"\ud7ff"'],
    ['a high surrogate before U+DBFF, two escapes', '"\\ud800\\udbff"', '"\\ud800\\udbff"'],
    ['a high surrogate before U+E000', '"\\udbff\\ue000"', '"\\udbff\ue000"'],
    ['a low then a high surrogate', '"\\udc00\\ud800"', '"\\udc00\\ud800"'],
    [
      'a lone high surrogate before text that spells udc00',
      String.raw`"\ud83dxudc00"`,
      String.raw`"\ud83dxudc00"`,
    ],
    [
      'a lone high surrogate before an escaped backslash and dc00',
      String.raw`"\ud83d\\dc00"`,
      String.raw`"\ud83d\\dc00"`,
    ],
    ['\\u0060, the first unit past the short-escape table', String.raw`"\u0060"`, '"`"'],
  ])(
    'writes %s canonically, or the surrogate-pair boundary or the short-escape table edge is off by one',
    (_label, text, expected) => {
      expect(canon(text)).toBe(expected);
    },
  );

  it('sorts raw UTF-8 keys by UTF-16 code units too, or byte order puts U+E000..U+FFFF before astral keys', () => {
    // Escape-free keys are ordered by their bytes, which agree with UTF-16 except here.
    expect(canon('{"\uffff":1,"😀":2,"\uff01":3,"\ue000":4,"中":5,"😀a":6,"\u00e9":7,"e":8}')).toBe(
      '{"e":8,"\u00e9":7,"中":5,"😀":2,"😀a":6,"\ue000":4,"\uff01":3,"\uffff":1}',
    );
    const keys = ['\uffff', '😀', '\uff01', '\ue000', '中', '😀a', '\u00e9', 'e', '', 'ab', 'a'];
    fc.assert(
      fc.property(fc.shuffledSubarray(keys, { minLength: 2 }), (picked) => {
        const text = `{${picked.map((key, i) => `${JSON.stringify(key)}:${i}`).join(',')}}`;
        const sorted = [...picked].sort();
        const expected = `{${sorted.map((key) => `${JSON.stringify(key)}:${picked.indexOf(key)}`).join(',')}}`;
        expect(canon(text)).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it(
    'equals an independent SPEC §5 canonicaliser on random documents, or some node kind is written wrongly',
    () => {
      fc.assert(
        fc.property(modelArb, fc.integer(), (model, seed) => {
          const text = render(model, seed, { duplicateRate: 0 });
          expect(canon(text)).toBe(specCanonical(model));
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it(
    'is the same string for every rendering of one value, or whitespace/escapes/order leak into it',
    () => {
      fc.assert(
        fc.property(
          modelArb,
          fc.array(fc.integer(), { minLength: 2, maxLength: 4 }),
          (model, seeds) => {
            const forms = new Set(
              seeds.map((seed) => canon(render(model, seed, { duplicateRate: 0 }))),
            );
            expect(forms.size).toBe(1);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});

describe('digests', () => {
  const base =
    '{"version":1,"hooks":{"stop":[{"type":"command","command":"/bin/a b","timeout":5}]}}';

  it('are sha256: plus 64 lowercase hex, or receipts get an unparseable digest format', () => {
    for (const d of [remainder(base), digest('entry', base)]) {
      expect(d).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(d).toMatch(DIGEST_PATTERN);
    }
    expect(DIGEST_PATTERN.test(`sha256:${'A'.repeat(64)}`)).toBe(false);
    expect(DIGEST_PATTERN.test(`sha256:${'a'.repeat(63)}`)).toBe(false);
  });

  it('differ between the entry and remainder labels for one node, and neither is the bare hash, or domain separation is lost', () => {
    const tree = load(base);
    const digests = (['entry', 'remainder'] as const).map((domain) => digestOf(domain, tree.root));
    // The same node under the two labels, and neither is the bare hash of the canonical form.
    const bare = `sha256:${createHash('sha256').update(canonicalize(tree.root)).digest('hex')}`;
    expect(new Set([...digests, bare]).size).toBe(3);
  });

  it('hash every byte of a canonical form larger than the digest buffer, or a large document digests only its first or last buffer', () => {
    // About 300 KB of canonical text: several fills of the 64 KiB buffer, then a partial one.
    const members = Array.from({ length: 3000 }, (_, i) => `"k${i}": "${'v'.repeat(90)}"`);
    const tree = load(`{"version":1,${members.join(', ')}}`);
    const expected = createHash('sha256')
      .update('cursorhooks/v1/remainder\0', 'utf8')
      .update(canonicalize(tree.root))
      .digest('hex');
    expect(digestOf('remainder', tree.root)).toBe(`sha256:${expected}`);
  });

  it('pins the remainder digest of {"version":1}, or a label/encoding change orphans every issued receipt', () => {
    const expected = `sha256:${createHash('sha256')
      .update('cursorhooks/v1/remainder\0{"version":1}', 'utf8')
      .digest('hex')}`;
    expect(remainder('{ "version" : 1 }')).toBe(expected);
  });

  const same: readonly [string, string, string][] = [
    ['whitespace', '{"a":[1,2],"b":"x"}', ' {\n\t"a" : [ 1 ,\r\n2 ] , "b":"x" }\n'],
    ['\\u0063 vs c', '{"a":"c"}', '{"a":"\\u0063"}'],
    ['\\/ vs /', '{"a":"/"}', '{"a":"\\/"}'],
    ['escaped vs literal key', '{"version":1}', '{"\\u0076ersion":1}'],
    ['upper vs lower hex', '{"a":"\\u00e9"}', '{"a":"\\u00E9"}'],
    ['escaped vs literal astral', '{"a":"😀"}', '{"a":"\\ud83d\\ude00"}'],
    ['\\n vs \\u000a', '{"a":"\\n"}', '{"a":"\\u000A"}'],
    ['member order', '{"a":1,"b":{"c":2,"d":3}}', '{"b":{"d":3,"c":2},"a":1}'],
  ];

  it.each(same)('ignore %s, or an equivalent spelling changes a receipt digest', (_label, a, b) => {
    expect(remainder(a)).toBe(remainder(b));
    expect(digest('entry', a)).toBe(digest('entry', b));
  });

  const different: readonly [string, string, string][] = [
    ['5 vs 5.0', '{"a":5}', '{"a":5.0}'],
    ['1e2 vs 100', '{"a":1e2}', '{"a":100}'],
    ['1e2 vs 1E2', '{"a":1e2}', '{"a":1E2}'],
    ['0 vs -0', '{"a":0}', '{"a":-0}'],
    [
      'big lexemes that round to one double',
      '{"a":90071992547409931234567890}',
      '{"a":90071992547409931234567891}',
    ],
    ['\\ud800 vs \\ufffd', '{"a":"\\ud800"}', '{"a":"\\ufffd"}'],
    ['NFC vs NFD', '{"a":"\u00e9"}', '{"a":"e\u0301"}'],
    ['array order', '{"a":[1,2]}', '{"a":[2,1]}'],
    ['string vs number', '{"a":"1"}', '{"a":1}'],
    ['null vs false', '{"a":null}', '{"a":false}'],
    ['an extra empty array member', '{"version":1}', '{"version":1,"future":[]}'],
    ['nesting', '{"a":[[1]]}', '{"a":[1]}'],
    ['key vs value swap', '{"a":"b"}', '{"b":"a"}'],
  ];

  it.each(different)(
    'distinguish %s, or a real change goes unnoticed by the digest',
    (_label, a, b) => {
      expect(remainder(a)).not.toBe(remainder(b));
    },
  );

  it(
    'change when any single string code unit changes, or some code units are conflated',
    () => {
      fc.assert(
        fc.property(
          stringValueArb.filter((s) => s.length > 0),
          fc.nat(),
          fc.integer({ min: 0, max: 0xffff }),
          (value, at, unit) => {
            const i = at % value.length;
            const changed = value.slice(0, i) + String.fromCharCode(unit) + value.slice(i + 1);
            fc.pre(changed !== value);
            const a = remainder(`{"s":${specCanonicalString(value)}}`);
            const b = remainder(`{"s":${specCanonicalString(changed)}}`);
            expect(a).not.toBe(b);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );
});

// ---------------------------------------------------------------------------------------------
// Escaped string lexemes are re-escaped byte by byte, never decoded: that path must agree with
// JSON.stringify of the decoded value for every spelling of every code unit.

/** A run of UTF-16 content and one valid JSON spelling of it. */
interface Piece {
  readonly value: string;
  readonly spelling: string;
}

const SHORT_SPELLINGS: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** `\uXXXX` for `unit`, hex digit i upper-cased where `upper[i]` is set. */
function uEscape(unit: number, upper: readonly boolean[]): string {
  const digits = [...unit.toString(16).padStart(4, '0')].map((digit, i) =>
    upper[i] === true ? digit.toUpperCase() : digit,
  );
  return `\\u${digits.join('')}`;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/** Every spelling of one code unit: raw where JSON allows it, its short escape, `\uXXXX`. */
function spellingsOf(unit: string, upper: readonly boolean[]): string[] {
  const code = unit.charCodeAt(0);
  const out: string[] = [];
  if (!isSurrogate(code) && code >= 0x20 && unit !== '"' && unit !== '\\') out.push(unit);
  const short = SHORT_SPELLINGS[unit];
  if (short !== undefined) out.push(short);
  out.push(uEscape(code, upper));
  return out;
}

/** All-lowercase, all-uppercase or mixed hex digits for `count` digits. */
const hexCaseArb = (count: number): fc.Arbitrary<readonly boolean[]> =>
  fc.oneof(
    fc.constant(Array<boolean>(count).fill(false)),
    fc.constant(Array<boolean>(count).fill(true)),
    fc.array(fc.boolean(), { minLength: count, maxLength: count }),
  );

const fromUnit = (unit: number) => String.fromCharCode(unit);

/** One BMP code unit that is not a surrogate: the characters with a special canonical form. */
const plainUnitArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a', 'Z', '0', ' ', '~', '"', '\\', '/', '\u007f', '\u2028', '\u2029'),
  fc.constantFrom('é', '中', '\u0080', '\u07ff', '\u0800', '\ufffd', '\ufeff', '\uffff'),
  fc.integer({ min: 0, max: 0x1f }).map(fromUnit),
  fc
    .integer({ min: 0x20, max: 0xffff })
    .filter((unit) => !isSurrogate(unit))
    .map(fromUnit),
);

const highArb = fc.oneof(
  fc.constantFrom(0xd83d, 0xd800, 0xdbff),
  fc.integer({ min: 0xd800, max: 0xdbff }),
);
const lowArb = fc.oneof(
  fc.constantFrom(0xde00, 0xdc00, 0xdfff),
  fc.integer({ min: 0xdc00, max: 0xdfff }),
);
const loneSurrogateArb = fc.oneof(highArb, lowArb).map(fromUnit);

/** A single code unit (a lone surrogate only ever as `\uXXXX`), spelled at random. */
const unitPieceArb: fc.Arbitrary<Piece> = fc
  .tuple(fc.oneof(plainUnitArb, loneSurrogateArb), fc.nat(), hexCaseArb(4))
  .map(([unit, choice, upper]) => {
    const spellings = spellingsOf(unit, upper);
    return { value: unit, spelling: spellings[choice % spellings.length] ?? '' };
  });

/** An astral character: raw UTF-8, or both surrogate halves escaped in either case. */
const astralPieceArb: fc.Arbitrary<Piece> = fc
  .tuple(
    fc.oneof(fc.constant(0x1f600), fc.integer({ min: 0x10000, max: 0x10ffff })),
    fc.boolean(),
    hexCaseArb(4),
    hexCaseArb(4),
  )
  .map(([codePoint, raw, upperHigh, upperLow]) => {
    const value = String.fromCodePoint(codePoint);
    const spelling = raw
      ? value
      : uEscape(value.charCodeAt(0), upperHigh) + uEscape(value.charCodeAt(1), upperLow);
    return { value, spelling };
  });

/** A high-surrogate escape directly followed by an escape that is not a low surrogate. */
const highThenNonLowPieceArb: fc.Arbitrary<Piece> = fc
  .tuple(highArb, fc.oneof(plainUnitArb, highArb.map(fromUnit)), fc.nat(), hexCaseArb(4))
  .map(([high, next, choice, upper]) => {
    const escapes = spellingsOf(next, upper).filter((spelling) => spelling.startsWith('\\'));
    const second = escapes[choice % escapes.length] ?? '';
    return { value: fromUnit(high) + next, spelling: uEscape(high, upper) + second };
  });

/** Pieces whose lexeme holds at least one escape, so the re-escaping path is the one taken. */
const escapedPiecesArb: fc.Arbitrary<readonly Piece[]> = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: unitPieceArb },
      { weight: 2, arbitrary: astralPieceArb },
      { weight: 1, arbitrary: highThenNonLowPieceArb },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .filter((pieces) => pieces.some((piece) => piece.spelling.includes('\\')));

describe('byte-level re-escaping of escaped string lexemes', () => {
  it(
    'equals JSON.stringify(decoded value) as UTF-8 for random strings and spellings, or some escape is re-written wrongly',
    () => {
      fc.assert(
        fc.property(escapedPiecesArb, (pieces) => {
          const value = pieces.map((piece) => piece.value).join('');
          const lexeme = `"${pieces.map((piece) => piece.spelling).join('')}"`;
          // At a non-zero byte offset, after non-ASCII content, so offsets are exercised too.
          const tree = load(`[" 中😀",${lexeme}]`);
          const array = tree.root;
          if (array.kind !== 'array') throw new Error('root is not an array');
          const string = array.elements[1];
          if (string?.kind !== 'string') throw new Error('element 1 is not a string');
          expect(string.escaped).toBe(true);
          expect(string.value).toBe(value);
          const expected = JSON.stringify(value);
          const out = canonicalize(string);
          expect(decodeStrict(out)).toBe(expected);
          expect(hex(out)).toBe(hex(utf8(expected)));
          expect(canonOf(tree)).toBe(`[" 中😀",${expected}]`);
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  const cases: readonly [string, string, string][] = [
    ['an upper-case escaped pair', '\\uD83D\\uDE00', '😀'],
    ['a lower-case escaped pair', '\\ud83d\\ude00', '😀'],
    ['a mixed-case escaped pair', '\\uD83d\\uDe00', '😀'],
    ['a high escape before a letter escape', '\\uD83D\\u0041', '\ud83dA'],
    ['a high escape before \\n', '\\uD83D\\n', '\ud83d\n'],
    ['a high escape before a private-use escape', '\\uD83D\\uE000', '\ud83d\ue000'],
    ['a high escape before \\"', '\\uDBFF\\"', '\udbff"'],
    ['a high escape before a high escape and a low one', '\\uD83D\\uD83D\\uDE00', '\ud83d😀'],
    ['a reversed escaped pair', '\\uDE00\\uD83D', '\ude00\ud83d'],
    ['a high escape before a raw astral character', '\\uD83D😀', '\ud83d😀'],
    ['a raw astral character before a low escape', '😀\\uDE00', '😀\ude00'],
    ['a high escape at the very end', 'a\\uD800', 'a\ud800'],
    ['\\/ and \\u002F', '\\/\\u002F/', '///'],
    ['escaped quote and backslash', '\\u0022\\u005C\\"\\\\', '"\\"\\'],
    ['the short controls as \\u escapes', '\\u0008\\u000C\\u000a\\u000D\\u0009', '\b\f\n\r\t'],
    ['other controls in upper case', '\\u000B\\u001F\\u0000', '\u000b\u001f\u0000'],
    ['DEL, U+2028 and U+2029 escaped', '\\u007F\\u2028\\u2029', '\u007f\u2028\u2029'],
    ['non-ASCII escaped and raw', 'é\\u00E9中\\u4E2D\\n', 'éé中中\n'],
    ['U+FFFD, U+FEFF and U+FFFF escaped', '\\uFFFD\\uFEFF\\uFFFF', '\ufffd\ufeff\uffff'],
  ];

  it.each(cases)(
    'writes %s as JSON.stringify and SPEC §5 do, or that escape is re-written wrongly',
    (_label, body, value) => {
      expect(JSON.stringify(value)).toBe(specCanonicalString(value));
      expect(canon(`"${body}"`)).toBe(specCanonicalString(value));
      expect(canon(`{"${body}":"${body}"}`)).toBe(
        `{${specCanonicalString(value)}:${specCanonicalString(value)}}`,
      );
    },
  );

  it('re-escapes a string of 200,000 \\\\ escapes, or long escape runs are cut short or mangled', () => {
    const body = '\\\\'.repeat(200_000);
    const tree = load(`"${body}"`);
    const string = tree.root;
    if (string.kind !== 'string') throw new Error('root is not a string');
    expect(string.escaped).toBe(true);
    expect(string.value).toBe('\\'.repeat(200_000));
    const out = canonicalize(string);
    expect(out.length).toBe(400_002);
    expect(decodeStrict(out)).toBe(JSON.stringify(string.value));
    expect(Buffer.from(out).equals(utf8(`"${body}"`))).toBe(true);
  });
});

describe('raw copies of escape-free lexemes', () => {
  // Escape-free strings, numbers and literals are copied from the source bytes; short and long
  // runs take different copy paths, so lengths on both sides of the switch are covered.
  const rawUnitArb = fc.constantFrom(
    'a',
    'Z',
    ' ',
    '/',
    '\u007f',
    '\u2028',
    'é',
    '中',
    '😀',
    '\ufffd',
  );
  const rawStringArb = fc.string({ unit: rawUnitArb, maxLength: 120, size: 'max' });
  const longNumberArb = fc
    .tuple(
      fc.integer({ min: 1, max: 9 }),
      fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 150, size: 'max' }),
    )
    .map(([first, rest]) => `${first}${rest}`);

  it(
    'keeps every byte of escape-free strings and numbers of any length, or the raw copy drops or shifts bytes',
    () => {
      fc.assert(
        fc.property(rawStringArb, longNumberArb, rawStringArb, (a, n, b) => {
          const tree = load(
            `{ "k" : [ ${JSON.stringify(a)} , ${n} , ${JSON.stringify(b)} , true ] }`,
          );
          expect(canonOf(tree)).toBe(
            `{"k":[${specCanonicalString(a)},${n},${specCanonicalString(b)},true]}`,
          );
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it.each([0, 1, 61, 62, 63, 64, 65, 66, 200, 100_000])(
    'copies an escape-free lexeme of %i bytes exactly, or runs at that length are cut or shifted',
    (length) => {
      const body = 'abcdefghijklmnopqrstuvwxyz'
        .repeat(Math.ceil(length / 26) + 1)
        .slice(0, Math.max(0, length - 2));
      const digits = `1${'0'.repeat(Math.max(0, length - 1))}`;
      expect(canon(`[ "${body}" , ${digits} ]`)).toBe(`["${body}",${digits}]`);
    },
  );
});
