// SPEC §3 limits at their exact boundaries, and the order "budget pass before anything else".

import { describe, expect, it } from 'vitest';
import { CursorHooksError, UnsupportedError } from '../../src/errors/errors.js';
import { scanBudget } from '../../src/json/budget.js';
import { assertOutputWithinLimits, loadJson } from '../../src/json/load.js';
import { parseJson } from '../../src/json/parse.js';
import { MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES } from '../../src/limits.js';
import {
  SPEC_MAX_BYTES,
  SPEC_MAX_DEPTH,
  SPEC_MAX_NODES,
  thrownBy,
  utf8,
} from '../support/common.js';
import { countTreeNodes, reasonOf } from './support.js';

const nestedArrays = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

/** `{"version":1,"pad":"…"}` padded with `unit` (plus ASCII) to exactly `total` bytes. */
function paddedDocument(total: number, unit = 'x'): Uint8Array {
  const head = '{"version":1,"pad":"';
  const tail = '"}';
  const room = total - utf8(head + tail).length;
  const unitBytes = utf8(unit).length;
  const pad = unit.repeat(Math.floor(room / unitBytes)) + 'x'.repeat(room % unitBytes);
  const bytes = utf8(head + pad + tail);
  expect(bytes.length).toBe(total);
  return bytes;
}

/** `[0,0,…]` holding `nodes` nodes (the array plus nodes − 1 zeros). */
const zerosArray = (nodes: number) =>
  `[${Array(nodes - 1)
    .fill('0')
    .join(',')}]`;

/** An object of `"kN":0` members whose last value is `last`; nodes = 1 + 2·members + extra. */
function keyedObject(members: number, last: string): string {
  const parts: string[] = [];
  for (let i = 0; i < members - 1; i++) parts.push(`"k${i}":0`);
  parts.push(`"k${members - 1}":${last}`);
  return `{${parts.join(',')}}`;
}

describe('limit constants', () => {
  it('exports 4 MiB, depth 64 and 65,536 nodes, or the limits drifted from SPEC §2', () => {
    expect([MAX_DOCUMENT_BYTES, MAX_DEPTH, MAX_NODES]).toEqual([
      SPEC_MAX_BYTES,
      SPEC_MAX_DEPTH,
      SPEC_MAX_NODES,
    ]);
  });
});

describe('depth: root container at 1, scalars add none', () => {
  it('accepts 64 nested arrays, or the root is counted at 0 or the bound is off by one', () => {
    const bytes = utf8(nestedArrays(64));
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('array');
  });

  it('accepts 64 nested arrays around a scalar, or scalars are counted as depth', () => {
    expect(loadJson(utf8(nestedArrays(64, '"s"'))).root.kind).toBe('array');
    expect(loadJson(utf8(nestedArrays(64, '1'))).root.kind).toBe('array');
  });

  it('refuses 65 nested arrays with document-too-deep, or a 65-deep document reaches the recursive parser', () => {
    const bytes = utf8(nestedArrays(65));
    expect(scanBudget(bytes).breach).toBe('depth');
    expect(reasonOf(() => loadJson(bytes))).toBe('document-too-deep');
  });

  it('accepts 64 nested objects and refuses 65 with document-too-deep, or objects are bounded differently from arrays', () => {
    expect(loadJson(utf8(nestedObjects(64))).root.kind).toBe('object');
    const bytes = utf8(nestedObjects(65));
    expect(scanBudget(bytes).breach).toBe('depth');
    expect(reasonOf(() => loadJson(bytes))).toBe('document-too-deep');
  });

  it('refuses 65 levels mixing arrays and objects, or only one container kind is counted', () => {
    const mixed = `${'[{"a":'.repeat(32)}[]${'}]'.repeat(32)}`;
    expect(reasonOf(() => loadJson(utf8(mixed)))).toBe('document-too-deep');
    const ok = `${'[{"a":'.repeat(32)}1${'}]'.repeat(32)}`;
    expect(loadJson(utf8(ok)).root.kind).toBe('array');
  });

  it('measures depth, not bracket count: many sibling 64-deep arrays pass, or closers are not subtracted', () => {
    const bytes = utf8(`[${Array(20).fill(nestedArrays(63)).join(',')}]`);
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('array');
  });

  it('never lets unmatched closers lower the depth below 0, or leading `]` buys extra nesting', () => {
    const text = `${']'.repeat(8)}${'['.repeat(MAX_DEPTH + 1)}`;
    expect(scanBudget(utf8(text)).breach).toBe('depth');
  });

  it('parseJson alone refuses depth 65 with document-too-deep, or skipping the budget pass lets recursion run unbounded', () => {
    expect(reasonOf(() => parseJson(utf8(nestedArrays(65))))).toBe('document-too-deep');
    expect(reasonOf(() => parseJson(utf8(nestedObjects(65))))).toBe('document-too-deep');
    expect(reasonOf(() => parseJson(utf8(nestedArrays(30_000))))).toBe('document-too-deep');
  });
});

describe('depth is lexical but string-aware', () => {
  it('ignores brackets inside strings, or string content is counted as containers', () => {
    const bytes = utf8(`{"version":1,"s":"${'['.repeat(100)}${'{'.repeat(100)}"}`);
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('object');
  });

  it('keeps scanning a string past an escaped quote, or `\\"` ends the string early and its brackets count', () => {
    const bytes = utf8(`["\\"${'['.repeat(100)}\\\\\\"${'['.repeat(100)}"]`);
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('array');
  });

  it('ends a string at a quote after an even backslash run, or `"\\\\"` swallows the real brackets after it', () => {
    // The root array plus 64 more levels after a string ending in an escaped backslash.
    const bytes = utf8(`["a\\\\\\\\",${nestedArrays(64)}]`);
    expect(scanBudget(bytes).breach).toBe('depth');
    expect(reasonOf(() => loadJson(bytes))).toBe('document-too-deep');
  });
});

describe('nodes: every container, every key and every scalar', () => {
  it('accepts [0,…] with exactly 65,536 nodes, or the bound is off by one', () => {
    const bytes = utf8(zerosArray(SPEC_MAX_NODES));
    expect(scanBudget(bytes).breach).toBeUndefined();
    const tree = loadJson(bytes);
    expect(countTreeNodes(tree.root)).toBe(SPEC_MAX_NODES);
  });

  it('refuses [0,…] with 65,537 nodes as document-too-many-nodes, or the node limit is not enforced', () => {
    const bytes = utf8(zerosArray(SPEC_MAX_NODES + 1));
    expect(scanBudget(bytes).breach).toBe('nodes');
    expect(reasonOf(() => loadJson(bytes))).toBe('document-too-many-nodes');
  });

  it('accepts an object of exactly 65,536 nodes counting keys, or keys are counted twice', () => {
    const bytes = utf8(keyedObject(32_767, '[0]'));
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(countTreeNodes(loadJson(bytes).root)).toBe(SPEC_MAX_NODES);
  });

  it('refuses an object of 65,537 nodes, or object keys are not counted as nodes', () => {
    // 32,768 members: without counting keys this would be only 32,769 nodes.
    for (const text of [keyedObject(32_767, '[0,0]'), keyedObject(32_768, '0')]) {
      const bytes = utf8(text);
      expect(scanBudget(bytes).breach).toBe('nodes');
      expect(reasonOf(() => loadJson(bytes))).toBe('document-too-many-nodes');
    }
  });

  it('counts strings and literals as one node each, or a scalar kind escapes the count', () => {
    const scalars = ['""', '"a,b:c"', 'true', 'false', 'null', '-1.5e+3'];
    const body = (n: number) =>
      Array.from({ length: n }, (_, i) => scalars[i % scalars.length]).join(', ');
    expect(scanBudget(utf8(`[${body(SPEC_MAX_NODES - 1)}]`)).breach).toBeUndefined();
    expect(reasonOf(() => loadJson(utf8(`[${body(SPEC_MAX_NODES)}]`)))).toBe(
      'document-too-many-nodes',
    );
  });

  it('does not count separators inside strings, or string content is counted as scalars', () => {
    const bytes = utf8(`["${'0,'.repeat(70_000)}"]`);
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('array');
  });
});

describe('size: at most 4,194,304 bytes', () => {
  it('accepts a document of exactly 4 MiB, or the size bound is off by one', () => {
    const bytes = paddedDocument(SPEC_MAX_BYTES);
    expect(scanBudget(bytes).breach).toBeUndefined();
    expect(loadJson(bytes).root.kind).toBe('object');
  });

  it('refuses 4 MiB + 1 byte with document-too-large, or the size limit is not enforced', () => {
    const bytes = paddedDocument(SPEC_MAX_BYTES + 1);
    expect(scanBudget(bytes).breach).toBe('size');
    expect(reasonOf(() => loadJson(bytes))).toBe('document-too-large');
  });

  it('counts UTF-8 bytes, not UTF-16 units, or a non-ASCII document may exceed 4 MiB of bytes', () => {
    expect(loadJson(paddedDocument(SPEC_MAX_BYTES, 'é')).root.kind).toBe('object');
    expect(reasonOf(() => loadJson(paddedDocument(SPEC_MAX_BYTES + 1, '中')))).toBe(
      'document-too-large',
    );
  });

  it('refuses exactly 4 MiB of content plus one trailing space, or trailing whitespace is exempt from the limit', () => {
    const doc = paddedDocument(SPEC_MAX_BYTES);
    const withSpace = new Uint8Array(doc.length + 1);
    withSpace.set(doc);
    withSpace[doc.length] = 0x20;
    expect(reasonOf(() => loadJson(withSpace))).toBe('document-too-large');
  });
});

describe('hostile input is refused by the budget pass alone, before any tree', () => {
  const cases: readonly [string, () => Uint8Array, string, string][] = [
    ['30,000 nested arrays', () => utf8(nestedArrays(30_000)), 'depth', 'document-too-deep'],
    ['30,000 unclosed `[`', () => utf8('['.repeat(30_000)), 'depth', 'document-too-deep'],
    ['30,000 nested objects', () => utf8('{"a":'.repeat(30_000)), 'depth', 'document-too-deep'],
    ['4 MiB of `[`', () => new Uint8Array(SPEC_MAX_BYTES).fill(0x5b), 'depth', 'document-too-deep'],
    [
      '4 MiB of `0,`',
      () => utf8('0,'.repeat(SPEC_MAX_BYTES / 2)),
      'nodes',
      'document-too-many-nodes',
    ],
    [
      '4 MiB + 1 of `[`',
      () => new Uint8Array(SPEC_MAX_BYTES + 1).fill(0x5b),
      'size',
      'document-too-large',
    ],
  ];

  it.each(cases)(
    'refuses %s in the budget pass with no RangeError, or the input reaches the recursive parser',
    (_label, build, breach, reason) => {
      const bytes = build();
      expect(scanBudget(bytes).breach).toBe(breach);
      const error = thrownBy(() => loadJson(bytes));
      expect(error).not.toBeInstanceOf(RangeError);
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(error instanceof CursorHooksError ? error.reason : undefined).toBe(reason);
    },
    10_000,
  );

  it('refuses over-budget input before judging its grammar or encoding, or the budget pass does not run first', () => {
    // 65,537 bare tokens that are not JSON at all: the node budget speaks first.
    expect(
      reasonOf(() =>
        loadJson(
          utf8(
            Array(SPEC_MAX_NODES + 1)
              .fill('0')
              .join(' '),
          ),
        ),
      ),
    ).toBe('document-too-many-nodes');
    // 65 levels followed by garbage.
    expect(reasonOf(() => loadJson(utf8(`${'['.repeat(65)}garbage`)))).toBe('document-too-deep');
    // Over 4 MiB, starting with a BOM and holding invalid UTF-8.
    const big = new Uint8Array(SPEC_MAX_BYTES + 1).fill(0xff);
    big.set([0xef, 0xbb, 0xbf]);
    expect(reasonOf(() => loadJson(big))).toBe('document-too-large');
  });
});

describe('assertOutputWithinLimits', () => {
  it('refuses one byte or one node past the limit with its output-* reason, or an output refusal masquerades as a bad input', () => {
    const cases: readonly [number, number, string][] = [
      [SPEC_MAX_BYTES + 1, 1, 'output-too-large'],
      [1, SPEC_MAX_NODES + 1, 'output-too-many-nodes'],
    ];
    for (const [size, nodes, reason] of cases) {
      const error = thrownBy(() => assertOutputWithinLimits(size, nodes));
      expect(error).toBeInstanceOf(UnsupportedError);
      expect(error instanceof CursorHooksError ? error.reason : undefined).toBe(reason);
    }
  });

  it('passes output exactly at both limits, or valid plans are refused', () => {
    expect(() => assertOutputWithinLimits(SPEC_MAX_BYTES, SPEC_MAX_NODES)).not.toThrow();
  });
});

describe('scanBudget node count', () => {
  it('counts every container, key and scalar exactly, or the tape is sized and output limits are computed from a wrong count', () => {
    expect(scanBudget(utf8('{"a":[1,"x",{"b":null}],"c":true}')).nodes).toBe(10);
    expect(scanBudget(utf8(zerosArray(SPEC_MAX_NODES))).nodes).toBe(SPEC_MAX_NODES);
    expect(scanBudget(utf8('"a\\"b" ')).nodes).toBe(1);
  });
});
