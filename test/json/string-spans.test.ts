// The budget pass reads each string once and the parser reuses that reading: the tape must come
// out exactly as when the parser reads every string itself, and a reading must never serve
// bytes it was not made for.

import { describe, expect, it } from 'vitest';
import { scanBudget } from '../../src/json/budget.js';
import { loadJson } from '../../src/json/load.js';
import { parseJson } from '../../src/json/parse.js';
import { StringSpans } from '../../src/json/string-spans.js';
import type { JsonNode } from '../../src/json/tree.js';
import { thrownBy, utf8 } from '../support/common.js';
import { reasonOf, treeValue } from './support.js';

/** Every node of the tape as [kind, escaped, rewritten, start, end, next]. */
function tapeOf(root: JsonNode): (number | boolean)[][] {
  const { tape } = root;
  return Array.from({ length: tape.subtreeSize(root.index) }, (_, index) => [
    tape.tag(index),
    tape.escaped(index),
    tape.rewritten(index),
    tape.start(index),
    tape.end(index),
    tape.next(index),
  ]);
}

/** Plain, short-escaped, `\u`, `\/`, surrogate, non-ASCII and empty strings, as keys and values. */
const EVERY_STRING_KIND =
  '{"version":1,"plain":"abc","esc\\n":"tab\\there","\\u0041":["\\/", "\\ud83d\\ude00", "räksmörgås",""],' +
  ' "k":{"":"x","\\"q\\"":"\\\\"}}';

describe("the parser reuses the budget pass's string readings", () => {
  // Red: a reading packed, indexed or tagged wrongly (end off by one, ESCAPED or REWRITTEN
  // lost, the wrong string's reading) gives another tape than the parser's own reading.
  it('builds the same tape from the readings as from reading each string itself, or a reading is packed, indexed or tagged wrongly', () => {
    const bytes = utf8(EVERY_STRING_KIND);
    const loaded = loadJson(bytes).root;
    expect(tapeOf(loaded)).toStrictEqual(tapeOf(parseJson(bytes)));
    expect(treeValue(loaded)).toStrictEqual(JSON.parse(EVERY_STRING_KIND));
  });

  // Red: a record that does not grow past its first allocation loses the readings of the
  // strings after it (or overwrites earlier ones).
  it('keeps a reading for every string of a document with thousands of strings, or readings past the first allocation are lost', () => {
    const value = { version: 1, list: Array.from({ length: 3000 }, (_, i) => `s${i}\\n`) };
    const bytes = utf8(JSON.stringify(value));
    const spans = new StringSpans();
    expect(scanBudget(bytes, spans).breach).toBeUndefined();
    let open = -1;
    // "version", "list", then the 3,000 elements.
    for (let index = 0; index < 3002; index++) {
      open = bytes.indexOf(0x22, open + 1);
      expect(spans.reading(bytes, index, open), `string ${index}`).toBeGreaterThan(0);
      open = bytes.indexOf(0x22, open + 1);
    }
    expect(spans.reading(bytes, 3002, bytes.length - 2)).toBeLessThan(0);
    expect(tapeOf(parseJson(bytes, 1, spans))).toStrictEqual(tapeOf(parseJson(bytes)));
  });

  // Red: without the check of which bytes a record was made for, `["ab"]`'s reading (a plain
  // string ending at offset 5) is taken for the escaped string at the same offset of the
  // other document, which is then misread and refused.
  it('ignores readings made for other bytes, even at the same offsets, or a foreign record is trusted', () => {
    const recorded = utf8('["ab"]');
    const other = utf8('["a\\u0062"]');
    const spans = new StringSpans();
    scanBudget(recorded, spans);
    expect(tapeOf(parseJson(other, 2, spans))).toStrictEqual(tapeOf(parseJson(other)));
  });

  // Red: a record kept after its load would serve the next document, and keep the last one
  // in memory.
  it('forgets a record, or its readings still serve the bytes they were made for', () => {
    const bytes = utf8('["ab"]');
    const spans = new StringSpans();
    scanBudget(bytes, spans);
    expect(spans.reading(bytes, 0, 1)).toBeGreaterThan(0);
    spans.forget();
    expect(spans.reading(bytes, 0, 1)).toBeLessThan(0);
  });

  // Red: an invalid string's (negative) reading taken as a position, or the parser trusting
  // the budget pass's lexical end of it, accepts or misplaces the refusal.
  it.each([
    ['a raw control character', '["ab\u0001c"]', 4],
    ['an unknown escape', '["ab\\qc"]', 5],
    ['a short \\u escape', '["\\u12G4"]', 6],
    ['an unterminated string', '["abc', 5],
  ])(
    'refuses %s at its own offset after the budget pass read it, or refusals move',
    (_, text, offset) => {
      const bytes = utf8(text);
      expect(reasonOf(() => loadJson(bytes))).toBe('json-syntax');
      expect(thrownBy(() => loadJson(bytes))).toMatchObject({ at: { offset } });
    },
  );
});
