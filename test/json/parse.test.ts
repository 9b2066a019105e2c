// Strict UTF-8, strict RFC 8259 grammar, duplicate keys and lexeme preservation (SPEC §3, §4).

import { describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../src/errors/errors.js';
import { loadJson } from '../../src/json/load.js';
import { parseJson } from '../../src/json/parse.js';
import type { JsonNode, JsonTree, Span } from '../../src/json/tree.js';
import { memberValue } from '../../src/json/tree.js';
import { assertStrictUtf8 } from '../../src/json/utf8.js';
import { bytesOf, decodeStrict, thrownBy, utf8 } from '../support/common.js';
import { reasonOf, treeValue } from './support.js';

const load = (text: string) => loadJson(utf8(text));

/** The bytes `{"version":1,"s":"<inner>"}` with raw `inner` bytes inside the string. */
const inString = (inner: readonly number[]) => bytesOf('{"version":1,"s":"', inner, '"}');

function rootObject(tree: JsonTree) {
  if (tree.root.kind !== 'object') throw new Error('root is not an object');
  return tree.root;
}

/** The source bytes of `span`, decoded strictly: a span that splits a character throws. */
function spelling(tree: JsonTree, span: Span): string {
  return decodeStrict(tree.bytes.subarray(span.start, span.end));
}

function member(tree: JsonTree, key: string): JsonNode {
  const value = memberValue(rootObject(tree), key);
  if (value === undefined) throw new Error(`no member ${JSON.stringify(key)}`);
  return value;
}

describe('byte-order mark', () => {
  it('refuses a leading BOM with document-bom, or a BOM-prefixed file is silently accepted', () => {
    expect(reasonOf(() => loadJson(bytesOf([0xef, 0xbb, 0xbf], '{"version":1}')))).toBe(
      'document-bom',
    );
    expect(reasonOf(() => loadJson(bytesOf([0xef, 0xbb, 0xbf])))).toBe('document-bom');
  });

  it.each([
    ['EF BB and another byte', [0xef, 0xbb, 0x41]],
    ['EF, another byte, BF', [0xef, 0x41, 0xbf]],
    ['another byte, BB BF', [0x41, 0xbb, 0xbf]],
    ['EF alone', [0xef]],
  ])(
    'refuses %s as document-not-utf8, not document-bom, or a partial BOM is named a BOM',
    (_label, lead) => {
      expect(reasonOf(() => loadJson(bytesOf(lead, '{"version":1}')))).toBe('document-not-utf8');
    },
  );

  it('accepts a leading EF that starts another character, or every EF lead byte reads as a BOM', () => {
    // U+FF01 is EF BC 81; U+FEFF itself is EF BB BF.
    expect(() => assertStrictUtf8(utf8('\uff01{}'))).not.toThrow();
    expect(() => assertStrictUtf8(utf8('\ufbff{}'))).not.toThrow();
  });

  it('refuses U+FEFF between tokens as json-syntax but keeps it inside strings, or U+FEFF is treated as whitespace', () => {
    expect(reasonOf(() => load('{"version":1,\ufeff"a":1}'))).toBe('json-syntax');
    expect(reasonOf(() => load(' \ufeff{"version":1}'))).toBe('json-syntax');
    expect(treeValue(load('{"a":"\ufeff"}').root)).toEqual({ a: '\ufeff' });
  });

  it('throws UnsupportedError for document refusals, or grammar refusals lose their kind', () => {
    expect(thrownBy(() => loadJson(bytesOf([0xef, 0xbb, 0xbf], '{}')))).toBeInstanceOf(
      UnsupportedError,
    );
    expect(thrownBy(() => load('{'))).toBeInstanceOf(UnsupportedError);
  });
});

describe('strict UTF-8', () => {
  const invalid: readonly [string, readonly number[]][] = [
    ['overlong NUL C0 80', [0xc0, 0x80]],
    ['overlong C1 BF', [0xc1, 0xbf]],
    ['overlong 3-byte E0 80 AF', [0xe0, 0x80, 0xaf]],
    ['overlong 3-byte E0 9F BF', [0xe0, 0x9f, 0xbf]],
    ['overlong 4-byte F0 8F BF BF', [0xf0, 0x8f, 0xbf, 0xbf]],
    ['surrogate code point ED A0 80', [0xed, 0xa0, 0x80]],
    ['surrogate code point ED BF BF', [0xed, 0xbf, 0xbf]],
    ['encoded surrogate pair ED A0 BD ED B8 80', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
    ['above U+10FFFF F4 90 80 80', [0xf4, 0x90, 0x80, 0x80]],
    ['lead byte F5', [0xf5, 0x80, 0x80, 0x80]],
    ['lead byte F8', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['byte FE', [0xfe]],
    ['byte FF', [0xff]],
    ['stray continuation 80', [0x80]],
    ['stray continuation BF', [0xbf]],
    ['truncated 2-byte C3', [0xc3]],
    ['truncated 3-byte E4 B8', [0xe4, 0xb8]],
    ['truncated 4-byte F0 9F 98', [0xf0, 0x9f, 0x98]],
    ['lead byte followed by ASCII E4 41 41', [0xe4, 0x41, 0x41]],
  ];

  it.each(invalid)(
    'refuses %s inside a string with document-not-utf8, or malformed UTF-8 is decoded leniently',
    (_label, inner) => {
      expect(reasonOf(() => loadJson(inString(inner)))).toBe('document-not-utf8');
    },
  );

  it('refuses truncated UTF-8 at the very end of the input with document-not-utf8, or the last bytes are not checked', () => {
    expect(reasonOf(() => loadJson(bytesOf('{"version":1} ', [0xe4, 0xb8])))).toBe(
      'document-not-utf8',
    );
    expect(reasonOf(() => loadJson(bytesOf('"', [0xf0, 0x9f, 0x98])))).toBe('document-not-utf8');
  });

  it('refuses invalid UTF-8 outside strings with document-not-utf8 (encoding before grammar), or the check only covers string content', () => {
    expect(reasonOf(() => loadJson(bytesOf('{"version":1}', [0xff])))).toBe('document-not-utf8');
  });

  const valid: readonly [string, readonly number[], string][] = [
    ['U+0080 C2 80', [0xc2, 0x80], '\u0080'],
    ['U+00E9 C3 A9', [0xc3, 0xa9], 'é'],
    ['U+07FF DF BF', [0xdf, 0xbf], '\u07ff'],
    ['U+0800 E0 A0 80', [0xe0, 0xa0, 0x80], '\u0800'],
    ['U+4E2D E4 B8 AD', [0xe4, 0xb8, 0xad], '中'],
    ['U+D7FF ED 9F BF', [0xed, 0x9f, 0xbf], '\ud7ff'],
    ['U+E000 EE 80 80', [0xee, 0x80, 0x80], '\ue000'],
    ['U+FFFF EF BF BF', [0xef, 0xbf, 0xbf], '\uffff'],
    ['U+10000 F0 90 80 80', [0xf0, 0x90, 0x80, 0x80], '\u{10000}'],
    ['U+1F600 F0 9F 98 80', [0xf0, 0x9f, 0x98, 0x80], '😀'],
    ['U+10FFFF F4 8F BF BF', [0xf4, 0x8f, 0xbf, 0xbf], '\u{10ffff}'],
  ];

  it.each(valid)(
    'accepts %s and decodes it exactly, or valid multi-byte UTF-8 is refused or mangled',
    (_label, inner, decoded) => {
      const tree = loadJson(inString(inner));
      expect(treeValue(member(tree, 's'))).toBe(decoded);
    },
  );

  it('accepts a UTF-8 input that is a view into a larger buffer, or byteOffset is ignored', () => {
    const backing = bytesOf([0xff, 0xff], '{"s":"中"}', [0xff]);
    const view = backing.subarray(2, backing.length - 1);
    expect(treeValue(loadJson(view).root)).toEqual({ s: '中' });
  });
});

describe('assertStrictUtf8 and decoding a view', () => {
  it('refuses a BOM and malformed UTF-8 with their reasons and passes strict UTF-8, or validation drifted from loadJson', () => {
    expect(reasonOf(() => assertStrictUtf8(bytesOf([0xef, 0xbb, 0xbf], '{}')))).toBe(
      'document-bom',
    );
    expect(reasonOf(() => assertStrictUtf8(bytesOf('"', [0xed, 0xa0, 0x80], '"')))).toBe(
      'document-not-utf8',
    );
    expect(reasonOf(() => assertStrictUtf8(bytesOf('"', [0xc0, 0x80], '"')))).toBe(
      'document-not-utf8',
    );
    expect(() => assertStrictUtf8(utf8('{"s":"中😀\ufeff"}'))).not.toThrow();
    expect(() => assertStrictUtf8(new Uint8Array(0))).not.toThrow();
  });

  it('validates and decodes a view at its own byte offset, or byteOffset is ignored', () => {
    // The bytes around the view are invalid: validating or decoding them would show.
    const backing = bytesOf([0xff], '"é中😀"', [0xff]);
    const view = backing.subarray(1, backing.length - 1);
    expect(() => assertStrictUtf8(view)).not.toThrow();
    const root = parseJson(view);
    expect(root.kind === 'string' ? root.value : undefined).toBe('é中😀');
    expect([root.start, root.end]).toEqual([0, view.length]);
  });
});

describe('strict RFC 8259 grammar', () => {
  const syntax: readonly [string, string][] = [
    ['empty input', ''],
    ['a space', ' '],
    ['whitespace only', ' \t\r\n \n'],
    ['a line comment', '{"version":1} // c'],
    ['a line comment inside', '{"version":1, // c\n"a":2}'],
    ['a block comment', '{/* c */"version":1}'],
    ['a hash comment', '# c\n{"version":1}'],
    ['a trailing comma in an object', '{"version":1,}'],
    ['a trailing comma in an array', '{"version":1,"a":[1,2,]}'],
    ['a leading comma', '[,1]'],
    ['a double comma', '[1,,2]'],
    ['a missing comma', '[1 2]'],
    ['a missing colon', '{"a" 1}'],
    ['a comma for the colon', '{"a",1}'],
    ['a key without its opening quote', '{a":1}'],
    ['a misspelt true', '[trve]'],
    ['a misspelt false', '[falze]'],
    ['a misspelt null', '[nul1]'],
    ['a missing value', '{"a":}'],
    ['an unquoted key', '{version:1}'],
    ['a single-quoted string', "{'version':1}"],
    ['a single-quoted value', `{"a":'x'}`],
    ['a leading zero', '[01]'],
    ['a leading zero after minus', '[-01]'],
    ['a double zero', '[00]'],
    ['a lone minus', '[-]'],
    ['a minus before non-digit', '[-a]'],
    ['a trailing dot', '[1.]'],
    ['a leading dot', '[.5]'],
    ['a leading plus', '[+1]'],
    ['an empty exponent', '[1e]'],
    ['an exponent sign only', '[1e+]'],
    ['a dot before the exponent', '[1.e5]'],
    ['a hex number', '[0x10]'],
    ['NaN', '[NaN]'],
    ['Infinity', '[Infinity]'],
    ['-Infinity', '[-Infinity]'],
    ['capitalised True', '[True]'],
    ['a truncated literal', '[nul]'],
    ['a literal with trailing letters', '[truex]'],
    ['undefined', '[undefined]'],
    ['a raw tab in a string', '["a\tb"]'],
    ['a raw LF in a string', '["a\nb"]'],
    ['a raw NUL in a string', '["a\u0000b"]'],
    ['a raw 0x1F in a string', '["\u001f"]'],
    ['escape \\x', '["\\x41"]'],
    ['escape \\u with 2 digits', '["\\u12"]'],
    ['escape \\u with a non-hex digit', '["\\u12G4"]'],
    ['escape \\U', '["\\U0041"]'],
    ['escape \\a', '["\\a"]'],
    ["escape \\'", `["\\'"]`],
    ['escape \\0', '["\\0"]'],
    ['escape \\ then space', '["\\ "]'],
    ['a backslash at end of input', '["\\'],
    ['an unterminated string', '["abc'],
    ['vertical tab between tokens', '[1,\u000b2]'],
    ['form feed between tokens', '[1,\u000c2]'],
    ['U+00A0 between tokens', '[1,\u00a02]'],
    ['U+2028 between tokens', '[1,\u20282]'],
    ['U+3000 between tokens', '[1,\u30002]'],
    ['NUL after the root', '{"version":1}\u0000'],
    ['a second root value', '{"version":1} {}'],
    ['text after the root', '{"version":1}x'],
    ['a stray closer after the root', '{"version":1}}'],
    ['an unclosed object', '{"version":1'],
    ['an unclosed array', '[1'],
    ['a mismatched closer', '[1}'],
    ['a lone closer', ']'],
  ];

  it.each(syntax)(
    'refuses %s with json-syntax, or a lenient extension is accepted',
    (_label, text) => {
      expect(reasonOf(() => load(text))).toBe('json-syntax');
    },
  );

  it.each(Array.from({ length: 0x20 }, (_, unit) => unit))(
    'refuses raw control character 0x%s inside a string, or control characters pass unescaped',
    (unit) => {
      expect(reasonOf(() => load(`{"a":"x${String.fromCharCode(unit)}y"}`))).toBe('json-syntax');
    },
  );

  const accepted: readonly [string, string, unknown][] = [
    [
      'all four whitespace bytes between tokens',
      ' \t\r\n{ \t\r\n"a" \t\r\n: \t\r\n1 \t\r\n} \t\r\n',
      { a: 1 },
    ],
    ['a raw DEL in a string', '["\u007f"]', ['\u007f']],
    ['raw U+2028 and U+2029 in a string', '["\u2028\u2029"]', ['\u2028\u2029']],
    ['the eight short escapes', '["\\"\\\\\\/\\b\\f\\n\\r\\t"]', ['"\\/\b\f\n\r\t']],
    ['upper, lower and mixed hex escapes', '["\\u00E9\\u00e9\\u00Ea"]', ['ééê']],
    [
      'the number grammar',
      '[0,-0,1.5,-1.5e-3,2E+10,0e0,1E400]',
      [0, -0, 1.5, -0.0015, 2e10, 0, Number.POSITIVE_INFINITY],
    ],
    ['a scalar root', '"s"', 's'],
    ['empty containers', '{"a":{},"b":[]}', { a: {}, b: [] }],
  ];

  it.each(accepted)(
    'accepts %s, or the parser is stricter than RFC 8259',
    (_label, text, value) => {
      expect(treeValue(load(text).root)).toStrictEqual(value);
    },
  );
});

describe('duplicate keys compare by decoded UTF-16 code units', () => {
  const duplicates: readonly [string, string][] = [
    ['at the root', '{"version":1,"a":1,"a":2}'],
    ['at the root, not adjacent', '{"a":1,"version":1,"b":2,"a":3}'],
    ['`version` twice with different values', '{"version":1,"version":1}'],
    ['in a nested object', '{"version":1,"hooks":{"stop":[],"stop":[]}}'],
    ['inside an array element', '{"version":1,"hooks":{"stop":[{"type":"a","type":"b"}]}}'],
    ['four levels deep', '[[{"a":{"b":{"c":1,"c":2}}}]]'],
    ['"version" vs "\\u0076ersion"', '{"version":1,"\\u0076ersion":1}'],
    ['"a/b" vs "a\\/b"', '{"a/b":1,"a\\/b":2}'],
    ['"\\u00e9" vs "\\u00E9"', '{"\\u00e9":1,"\\u00E9":2}'],
    ['"é" vs "\\u00e9"', '{"é":1,"\\u00e9":2}'],
    ['"😀" vs "\\ud83d\\ude00"', '{"😀":1,"\\ud83d\\ude00":2}'],
    ['"\\ud800" vs "\\uD800"', '{"\\ud800":1,"\\uD800":2}'],
    ['"\\n" vs "\\u000a"', '{"\\n":1,"\\u000a":2}'],
    ['two empty keys', '{"":1,"":2}'],
    ['"__proto__" twice', '{"__proto__":1,"__proto__":2}'],
    [
      '"中" vs "\\u4e2d" among nine keys',
      `{${'abcdefg'
        .split('')
        .map((k) => `"${k}":0`)
        .join(',')},"中":1,"\\u4e2d":2}`,
    ],
    ['two long escaped keys', `{"${'\\n'.repeat(300)}":1,"${'\\u000a'.repeat(300)}":2}`],
  ];

  it.each(duplicates)(
    'refuses a duplicate key %s with json-duplicate-key, or a later member shadows an earlier one',
    (_label, text) => {
      expect(reasonOf(() => load(text))).toBe('json-duplicate-key');
    },
  );

  const distinct: readonly [string, string, number][] = [
    ['NFC "é" vs NFD "e\\u0301"', '{"\u00e9":1,"e\u0301":2}', 2],
    ['"\\ud800" vs "\\ufffd"', '{"\\ud800":1,"\\ufffd":2}', 2],
    ['"\\ud800" vs "\\udc00"', '{"\\ud800":1,"\\udc00":2}', 2],
    ['"a" vs "A"', '{"a":1,"A":2}', 2],
    ['"a" vs "a "', '{"a":1,"a ":2}', 2],
    ['"version" in sibling objects', '[{"version":1},{"version":1}]', 2],
    ['"a" at two levels', '{"a":{"a":1}}', 1],
    ['"😀" vs "\\ud83d\\ude01" (same high surrogate)', '{"😀":1,"\\ud83d\\ude01":2}', 2],
    ['"😀a" vs "\\ud83d\\ude00" (escaped is a prefix)', '{"😀a":1,"\\ud83d\\ude00":2}', 2],
    ['"😀" vs "\\ud83d" (escaped ends inside the pair)', '{"😀":1,"\\ud83d":2}', 2],
    ['"é" vs "\\u00e9x"', '{"é":1,"\\u00e9x":2}', 2],
  ];

  it.each(distinct)(
    'accepts distinct keys %s, or keys are normalised or compared too loosely',
    (_label, text, count) => {
      const root = load(text).root;
      const size =
        root.kind === 'object'
          ? root.members.length
          : root.kind === 'array'
            ? root.elements.length
            : -1;
      expect(size).toBe(count);
    },
  );

  it('keeps NFC and NFD keys apart in the tree, or keys are normalised', () => {
    const tree = load('{"\u00e9":1,"e\u0301":2}');
    expect(rootObject(tree).members.map((m) => m.key.value)).toEqual(['\u00e9', 'e\u0301']);
  });
});

describe('lexemes and spans are preserved', () => {
  const doc =
    '{"version":1,"n":[90071992547409931234567890, 1e400,-0 ,1.0E+2,0.10,-1E-0]," 中":"\\ud800","s":["\\u4e2d","\\/","x\\u0063\\n","😀"]}';

  it('keeps every number lexeme exactly, or numbers are converted through floating point', () => {
    const tree = load(doc);
    const n = member(tree, 'n');
    if (n.kind !== 'array') throw new Error('n is not an array');
    const lexemes = n.elements.map((e) => (e.kind === 'number' ? e.lexeme : `<${e.kind}>`));
    expect(lexemes).toEqual([
      '90071992547409931234567890',
      '1e400',
      '-0',
      '1.0E+2',
      '0.10',
      '-1E-0',
    ]);
    for (const e of n.elements) expect(spelling(tree, e)).toBe(e.kind === 'number' ? e.lexeme : '');
  });

  it('decodes string escapes while the span keeps the raw spelling, or escapes are lost or mis-decoded', () => {
    const tree = load(doc);
    const s = member(tree, 's');
    if (s.kind !== 'array') throw new Error('s is not an array');
    const decoded = s.elements.map((e) => (e.kind === 'string' ? e.value : `<${e.kind}>`));
    expect(decoded).toEqual(['中', '/', 'xc\n', '😀']);
    // `escaped` says whether the lexeme holds a backslash; canonical digests copy the others raw.
    expect(s.elements.map((e) => (e.kind === 'string' ? e.escaped : `<${e.kind}>`))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(s.elements.map((e) => spelling(tree, e))).toEqual([
      '"\\u4e2d"',
      '"\\/"',
      '"x\\u0063\\n"',
      '"😀"',
    ]);
  });

  it('keeps \\ud800 as one lone surrogate code unit, or it becomes U+FFFD or is refused', () => {
    const tree = load(doc);
    const lone = member(tree, ' 中');
    expect(lone.kind).toBe('string');
    if (lone.kind !== 'string') return;
    expect(lone.value.length).toBe(1);
    expect(lone.value.charCodeAt(0)).toBe(0xd800);
    expect(lone.escaped).toBe(true);
    expect(spelling(tree, lone)).toBe('"\\ud800"');
  });

  it('joins an escaped surrogate pair into one code point, or escaped pairs are decoded per half wrongly', () => {
    const tree = load('{"a":"\\ud83d\\ude00"}');
    expect(treeValue(tree.root)).toEqual({ a: '😀' });
  });

  it('gives spans of keys, values and containers in byte offsets, or spans are UTF-16 offsets or off by one', () => {
    const tree = load(doc);
    const root = rootObject(tree);
    expect(tree.bytes).toEqual(utf8(doc));
    expect(root.start).toBe(0);
    expect(root.end).toBe(tree.bytes.length);
    // 中 is 3 bytes but 1 UTF-16 unit, 😀 4 bytes but 2 units: byte and text offsets part ways.
    expect(tree.bytes.length).toBe(doc.length + 2 + 2);
    for (const m of root.members) {
      expect(spelling(tree, m.key)).toBe(JSON.stringify(m.key.value));
      const first = tree.bytes[m.value.start];
      expect(first).toBeDefined();
      expect(String.fromCharCode(first ?? 0x20)).not.toMatch(/\s/);
    }
    // The key " 中" precedes "s", so the byte offset of "s" is its text offset plus 2.
    const s = member(tree, 's');
    const sText = doc.indexOf('["\\u4e2d"');
    expect(s.start).toBe(utf8(doc.slice(0, sText)).length);
    expect(s.start).toBe(sText + 2);
    expect(s.end).toBe(tree.bytes.length - 1);
    expect(spelling(tree, s)).toBe('["\\u4e2d","\\/","x\\u0063\\n","😀"]');
  });

  it('keeps member and element order, or the tree sorts members', () => {
    const tree = load('{"z":1,"version":1,"a":[3,1,2]}');
    expect(rootObject(tree).members.map((m) => m.key.value)).toEqual(['z', 'version', 'a']);
  });
});

describe('the tape when the expected node count is too small', () => {
  // Red: a tape that does not grow past its first allocation drops or overwrites nodes, so a
  // caller that passes no count (or a low one) gets a corrupted tree.
  it('grows to hold every node, or nodes past the first allocation are lost', () => {
    const value = { version: 1, list: Array.from({ length: 200 }, (_, i) => ({ [`k${i}`]: i })) };
    const bytes = utf8(JSON.stringify(value));
    for (const expected of [1, 2, 3, 17]) {
      const root = parseJson(bytes, expected);
      expect(treeValue(root)).toEqual(value);
      expect(root.tape.subtreeSize(root.index)).toBe(1 + 2 * 2 + 200 * 3);
    }
  });
});
