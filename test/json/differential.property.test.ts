// Differential tests: loadJson's accept/refuse decision against an oracle built from TextDecoder
// (fatal), JSON.parse, an independent duplicate-key scan and the SPEC §3 limits.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorHooksError } from '../../src/errors/errors.js';
import { loadJson } from '../../src/json/load.js';
import type { JsonTree } from '../../src/json/tree.js';
import { bytesOf, DOCUMENT_REASONS, fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import {
  hasDuplicateKey,
  type Model,
  modelArb,
  mutate,
  mutationArb,
  oracle,
  render,
  treeValue,
} from './support.js';

type Outcome = { readonly tree: JsonTree } | { readonly error: unknown };

function load(bytes: Uint8Array): Outcome {
  try {
    return { tree: loadJson(bytes) };
  } catch (error) {
    return { error };
  }
}

/** Compares one input's outcome with the oracle, including the tree's round trip and reason. */
function agreesWithOracle(bytes: Uint8Array): void {
  const verdict = oracle(bytes);
  const outcome = load(bytes);
  if (verdict.accept) {
    if ('error' in outcome) {
      throw new Error(
        `refused a valid document: ${String(outcome.error)} ${Buffer.from(bytes).toString('hex')}`,
      );
    }
    expect(treeValue(outcome.tree.root)).toStrictEqual(verdict.value);
    return;
  }
  if ('tree' in outcome) {
    throw new Error(`accepted an invalid document: ${Buffer.from(bytes).toString('hex')}`);
  }
  expect(outcome.error).toBeInstanceOf(CursorHooksError);
  if (outcome.error instanceof CursorHooksError) {
    expect(verdict.reasons).toContain(outcome.error.reason);
  }
}

const RUNS = fcRuns(300);

/** A document: a model rendered with random whitespace, escapes, order, maybe duplicate keys. */
const renderedArb = fc
  .tuple(modelArb, fc.integer(), fc.constantFrom(0, 0, 0.3, 1))
  .map(([model, seed, duplicateRate]): [Model, string] => [
    model,
    render(model, seed, { duplicateRate }),
  ]);

const JSONISH_TOKENS: readonly (string | readonly number[])[] = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  '\\u',
  '\\ud800',
  '\\"',
  '"a"',
  '"version"',
  '"\\u0076ersion"',
  '1',
  '0',
  '-',
  '.',
  'e',
  '+',
  '1e400',
  'true',
  'null',
  'nul',
  ' ',
  '\n',
  '\r',
  '\t',
  '\v',
  '/*',
  '*/',
  '中',
  '😀',
  [0xef, 0xbb, 0xbf],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe4, 0xb8],
  [0x80],
  [0xff],
  [0x00],
  [0x1f],
];

const jsonishBytesArb = fc
  .array(fc.constantFrom(...JSONISH_TOKENS), { maxLength: 40 })
  .map((tokens) => bytesOf(...tokens));

describe('loadJson against the JSON.parse oracle', () => {
  it(
    'agrees on rendered documents (whitespace, escapes, key order, duplicate keys), or the parser is laxer or stricter than RFC 8259 + SPEC §3',
    () => {
      fc.assert(
        fc.property(renderedArb, ([, text]) => {
          agreesWithOracle(utf8(text));
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it(
    'accepts every duplicate-free rendering and rebuilds the same value, or escapes/lexemes are decoded wrongly',
    () => {
      fc.assert(
        fc.property(modelArb, fc.integer(), (model, seed) => {
          const bytes = utf8(render(model, seed, { duplicateRate: 0 }));
          const tree = loadJson(bytes);
          expect(treeValue(tree.root)).toStrictEqual(JSON.parse(new TextDecoder().decode(bytes)));
        }),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it(
    'agrees on byte-mutated renderings (insert, delete, flip, BOM, invalid UTF-8), or a malformed byte slips through or a valid one is refused',
    () => {
      fc.assert(
        fc.property(
          renderedArb,
          fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
          ([, text], ms) => {
            agreesWithOracle(mutate(utf8(text), ms));
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  it(
    'agrees on token soup from a JSON-ish alphabet, or near-JSON fragments are misjudged',
    () => {
      fc.assert(fc.property(jsonishBytesArb, agreesWithOracle), { numRuns: RUNS });
    },
    propertyTimeout(RUNS),
  );
});

describe('the differential harness itself', () => {
  it('reaches every verdict from its generators, or the property silently stops covering a rule', () => {
    const seen = new Set<string>();
    const samples = fc.sample(fc.tuple(renderedArb, fc.array(mutationArb, { maxLength: 3 })), {
      numRuns: 1000,
      seed: 20_251_202,
    });
    for (const [[, text], mutations] of samples) {
      const verdict = oracle(mutate(utf8(text), mutations));
      seen.add(verdict.accept ? 'accept' : (verdict.reasons[0] ?? ''));
    }
    expect([...seen].sort()).toEqual(
      ['accept', 'document-bom', 'document-not-utf8', 'json-duplicate-key', 'json-syntax'].sort(),
    );
  });

  it('its duplicate-key scan finds repeats by decoded key at any level, or the oracle cannot see duplicates', () => {
    // JSON "\\u0061" is backslash-u-0061, not "a"; JSON "\u0061" is "a".
    expect(hasDuplicateKey(String.raw`{"a":1,"\\u0061":2}`)).toBe(false);
    expect(hasDuplicateKey(String.raw`{"a":1,"\u0061":2}`)).toBe(true);
    expect(hasDuplicateKey(String.raw`[{"x":{"k\\":1,"k\\":2}}]`)).toBe(true);
    expect(hasDuplicateKey(String.raw`{"k\"":1,"k\\":2}`)).toBe(false);
    expect(hasDuplicateKey('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBe(false);
    expect(hasDuplicateKey('{"a":"a","b":"a"}')).toBe(false);
  });
});

describe('loadJson on arbitrary bytes', () => {
  const onlyTreeOrCursorHooksError = (bytes: Uint8Array) => {
    const outcome = load(bytes);
    if ('tree' in outcome) {
      expect(['object', 'array', 'string', 'number', 'literal']).toContain(outcome.tree.root.kind);
      return;
    }
    // A RangeError, TypeError or any foreign throwable here is the failure this test catches.
    expect(outcome.error).toBeInstanceOf(CursorHooksError);
    if (outcome.error instanceof CursorHooksError) {
      expect(DOCUMENT_REASONS).toContain(outcome.error.reason);
    }
  };

  it(
    'returns a tree or throws a CursorHooksError with a document reason for random bytes, or some input crashes with a foreign error',
    () => {
      fc.assert(fc.property(fc.uint8Array({ maxLength: 96 }), onlyTreeOrCursorHooksError), {
        numRuns: RUNS,
      });
    },
    propertyTimeout(RUNS),
  );

  it(
    'returns a tree or throws a CursorHooksError for JSON-ish token soup, or some near-JSON input crashes',
    () => {
      fc.assert(fc.property(jsonishBytesArb, onlyTreeOrCursorHooksError), { numRuns: RUNS });
    },
    propertyTimeout(RUNS),
  );

  it(
    'agrees with the oracle on random bytes too, or a random byte string is misjudged',
    () => {
      fc.assert(fc.property(fc.uint8Array({ maxLength: 32 }), agreesWithOracle), { numRuns: RUNS });
    },
    propertyTimeout(RUNS),
  );
});
