// Positions agree with their offset whatever the document (issue 20): a valid document with one
// byte deleted or inserted, and arbitrary bytes for the UTF-8 refusal's offset.

import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorHooksError, type DocumentPosition } from '../../src/errors/errors.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isJsonWhitespace } from '../../src/json/bytes.js';
import { loadJson } from '../../src/json/load.js';
import { firstInvalidUtf8 } from '../../src/json/utf8.js';
import { decodeStrict, fcRuns, thrownBy, utf8 } from '../support/common.js';

/** Line and column of `offset`, counted on decoded text: an independent model of positionAt. */
function modelPosition(bytes: Uint8Array, offset: number): DocumentPosition {
  const lines = decodeStrict(bytes.subarray(0, offset)).split(/\r\n|\r|\n/u);
  const last = lines[lines.length - 1] as string;
  return { offset, line: lines.length, column: [...last].length + 1 };
}

/** A comma whose next non-whitespace byte closes a container: the parser reports it there. */
function isTrailingComma(bytes: Uint8Array, offset: number): boolean {
  if (bytes[offset] !== COMMA) return false;
  let next = offset + 1;
  while (next < bytes.length && isJsonWhitespace(bytes[next] as number)) next++;
  return bytes[next] === CLOSE_ARRAY || bytes[next] === CLOSE_OBJECT;
}

/** The offset of the first byte of the character holding byte `at`. */
function characterStart(bytes: Uint8Array, at: number): number {
  let start = at;
  while (start > 0 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
  return start;
}

const NEWLINES = ['\n', '\r\n', '\r'] as const;

/** A valid document, pretty-printed with any of the line ends, as bytes. */
const documents = fc
  .record({
    value: fc.dictionary(
      fc.string({ unit: 'grapheme', maxLength: 4 }),
      fc.jsonValue({ maxDepth: 3 }),
      {
        maxKeys: 4,
      },
    ),
    indent: fc.constantFrom(0, 1, 2, '\t'),
    newline: fc.constantFrom(...NEWLINES),
  })
  .map(({ value, indent, newline }) =>
    utf8(JSON.stringify(value, null, indent).replaceAll('\n', newline)),
  );

type Edit = { readonly at: number; readonly insert?: number };

/** The document with one byte deleted at `at`, or `insert` inserted before it. */
function edited(bytes: Uint8Array, { at, insert }: Edit): Uint8Array {
  if (insert === undefined)
    return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
  return Uint8Array.from([...bytes.subarray(0, at), insert, ...bytes.subarray(at)]);
}

const cases = documents.chain((bytes) =>
  fc.record({
    bytes: fc.constant(bytes),
    edit: fc.record(
      { at: fc.nat({ max: bytes.length - 1 }), insert: fc.integer({ min: 0, max: 255 }) },
      { requiredKeys: ['at'] },
    ),
  }),
);

describe('positions of refusals after a one-byte edit', () => {
  it('reports an offset within the document, never before the edit (bar a trailing comma), with the line and column of that offset, or positions are off', () => {
    fc.assert(
      fc.property(cases, ({ bytes, edit }) => {
        const broken = edited(bytes, edit);
        const error = thrownBy(() => loadJson(broken));
        if (!(error instanceof CursorHooksError)) return;
        if (error.reason !== 'json-syntax' && error.reason !== 'document-not-utf8') {
          if (error.reason === 'json-duplicate-key') {
            expect(error.at).toEqual(modelPosition(broken, error.at?.offset ?? -1));
          }
          return;
        }
        const at = error.at;
        expect(at, 'a syntax or encoding refusal carries a position').toBeDefined();
        if (at === undefined) return;
        expect(at.offset).toBeGreaterThanOrEqual(0);
        expect(at.offset).toBeLessThanOrEqual(broken.length);
        // Everything before the edit (before the character it hits, for UTF-8) is a prefix of
        // a valid document, so nothing there is at fault.
        const from = error.reason === 'json-syntax' ? edit.at : characterStart(bytes, edit.at);
        if (!isTrailingComma(broken, at.offset)) expect(at.offset).toBeGreaterThanOrEqual(from);
        expect(at).toEqual(modelPosition(broken, at.offset));
      }),
      { numRuns: fcRuns(400) },
    );
  });
});

describe('the offset of the first invalid UTF-8 sequence', () => {
  // Bytes mostly from the ranges that make or break sequences.
  const byte = fc.oneof(
    fc.integer({ min: 0x20, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0xbf }),
    fc.integer({ min: 0xc0, max: 0xff }),
  );

  it('is the length for valid UTF-8, else a point where the prefix is valid and no sequence of 1 to 4 bytes is, or UTF-8 refusals point at the wrong byte', () => {
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (list) => {
        const bytes = Uint8Array.from(list);
        const offset = firstInvalidUtf8(bytes);
        if (isUtf8(bytes)) {
          expect(offset).toBe(bytes.length);
          return;
        }
        expect(offset).toBeLessThan(bytes.length);
        expect(isUtf8(bytes.subarray(0, offset))).toBe(true);
        for (let size = 1; size <= 4; size++) {
          expect(isUtf8(bytes.subarray(offset, offset + size)), `${size} bytes decode`).toBe(false);
        }
      }),
      { numRuns: fcRuns(2000) },
    );
  });
});
