// plainRunEnd tests four bytes at a time with bit tricks; it must find exactly the byte a
// byte-by-byte scan finds, whatever the bytes, the view's offset in its buffer and the start.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_WORDS, plainRunEnd, wordsOf } from '../../src/json/plain-run.js';
import { fcRuns, propertyTimeout } from '../support/common.js';

/** The reference: the first byte at or after `from` below 0x20, a quote or a backslash. */
function byteByByte(bytes: Uint8Array, from: number): number {
  let p = from;
  while (p < bytes.length) {
    const byte = bytes[p] as number;
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return p;
    p++;
  }
  return p;
}

/** Mostly plain bytes (ASCII and UTF-8 continuation/lead bytes), now and then a special one. */
const byteArb = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0xff }) },
  { weight: 1, arbitrary: fc.constantFrom(0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1f, 0x22, 0x5c) },
);

const RUNS = fcRuns(2000);

describe('plainRunEnd', () => {
  // Red: a word test that misses a special byte in some lane (a wrong constant, a sign or
  // borrow slip, bytes 0x80..0xFF taken for controls), a misaligned view (byteOffset not a
  // multiple of 4) or a wrong prologue/epilogue skips a quote, backslash or control byte, so
  // a string would end late or a raw control character would be accepted.
  it(
    'stops where a byte-by-byte scan stops, for any bytes, view offset and start, or a quote, backslash or control byte is skipped',
    () => {
      fc.assert(
        fc.property(
          fc.array(byteArb, { maxLength: 80 }),
          fc.integer({ min: 0, max: 7 }),
          fc.nat(),
          (values, offset, seed) => {
            const buffer = new Uint8Array(values.length + offset + 3).fill(0x22);
            buffer.set(values, offset);
            const bytes = buffer.subarray(offset, offset + values.length);
            const from = values.length === 0 ? 0 : seed % (values.length + 1);
            const expected = byteByByte(bytes, from);
            expect(plainRunEnd(bytes, wordsOf(bytes), from)).toBe(expected);
            expect(plainRunEnd(bytes, NO_WORDS, from)).toBe(expected);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS, 2),
  );

  // Red: a word loop that reads the words past the view (the quote bytes after it in the
  // buffer) ends a run early; one that stops short of the last bytes misses their check.
  it('reads every lane of every word and nothing past the view, or a run ends early or late', () => {
    for (let special = 0; special < 0x100; special++) {
      const isSpecial = special < 0x20 || special === 0x22 || special === 0x5c;
      for (let at = 0; at < 12; at++) {
        const buffer = new Uint8Array(16).fill(0x22);
        const bytes = buffer.subarray(1, 13).fill(0x61);
        bytes[at] = special;
        expect(plainRunEnd(bytes, wordsOf(bytes), 0)).toBe(isSpecial ? at : 12);
      }
    }
  });
});
