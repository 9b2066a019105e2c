// Shared helpers for the JSON-layer tests: refusal reasons, a document model with
// its own randomised renderer, and an oracle that decides acceptance without touching src/json.

import fc from 'fast-check';
import { expect } from 'vitest';
import { CursorHooksError } from '../../src/errors/errors.js';
import type { ErrorReason } from '../../src/errors/reasons.js';
import type { JsonNode } from '../../src/json/tree.js';
import {
  decodeStrict,
  SPEC_MAX_BYTES,
  SPEC_MAX_DEPTH,
  SPEC_MAX_NODES,
  thrownBy,
} from '../support/common.js';

/** The reason of the CursorHooksError `fn` throws; fails the test on any other outcome. */
export function reasonOf(fn: () => unknown): string {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(CursorHooksError);
  return error instanceof CursorHooksError ? error.reason : '<none>';
}

// ---------------------------------------------------------------------------------------------
// Oracle: accept ⇔ strict UTF-8 without BOM, JSON.parse accepts, no duplicate key, within limits.

export type OracleVerdict =
  | { readonly accept: true; readonly value: unknown }
  | { readonly accept: false; readonly reasons: readonly ErrorReason[] };

export function oracle(bytes: Uint8Array): OracleVerdict {
  if (bytes.length > SPEC_MAX_BYTES) return { accept: false, reasons: ['document-too-large'] };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { accept: false, reasons: ['document-bom'] };
  }
  let text: string;
  try {
    text = decodeStrict(bytes);
  } catch {
    return { accept: false, reasons: ['document-not-utf8'] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The SPEC does not order a duplicate key before a later syntax error, so either is fine.
    return { accept: false, reasons: ['json-syntax', 'json-duplicate-key'] };
  }
  if (hasDuplicateKey(text)) return { accept: false, reasons: ['json-duplicate-key'] };
  if (depthOf(value) > SPEC_MAX_DEPTH) return { accept: false, reasons: ['document-too-deep'] };
  if (nodesOf(value) > SPEC_MAX_NODES) {
    return { accept: false, reasons: ['document-too-many-nodes'] };
  }
  return { accept: true, value };
}

/**
 * Duplicate keys in text that JSON.parse already accepted. Keys are decoded by JSON.parse itself,
 * so two spellings of one key compare equal by UTF-16 code units.
 */
export function hasDuplicateKey(text: string): boolean {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const keys = stack.at(-1);
      if (expectKey && keys) {
        const key: unknown = JSON.parse(text.slice(i, j + 1));
        if (typeof key !== 'string') throw new Error('oracle: key is not a string');
        if (keys.has(key)) return true;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      stack.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack.at(-1) instanceof Set;
    }
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Container depth with the root container at 1; scalars add none. */
export function depthOf(value: unknown): number {
  const children = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : null;
  if (children === null) return 0;
  return 1 + children.reduce((max: number, child) => Math.max(max, depthOf(child)), 0);
}

/** Every container, every key and every scalar is one node. */
export function nodesOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + nodesOf(item), 0);
  if (isRecord(value)) {
    return 1 + Object.values(value).reduce((sum: number, item) => sum + 1 + nodesOf(item), 0);
  }
  return 1;
}

/** The JS value a tree denotes, numbers through `Number(lexeme)`, objects via own data props. */
export function treeValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object':
      return Object.fromEntries(node.members.map((m) => [m.key.value, treeValue(m.value)]));
    case 'array':
      return node.elements.map(treeValue);
    case 'string':
      return node.value;
    case 'number':
      return Number(node.lexeme);
    default:
      return node.lexeme === 'null' ? null : node.lexeme === 'true';
  }
}

export function countTreeNodes(node: JsonNode): number {
  switch (node.kind) {
    case 'object':
      return 1 + node.members.reduce((sum, m) => sum + 1 + countTreeNodes(m.value), 0);
    case 'array':
      return 1 + node.elements.reduce((sum, e) => sum + countTreeNodes(e), 0);
    default:
      return 1;
  }
}

// ---------------------------------------------------------------------------------------------
// A document model (numbers as lexemes, strings as UTF-16 incl. lone surrogates) and arbitraries.

export type Model =
  | { readonly kind: 'object'; readonly members: readonly (readonly [string, Model])[] }
  | { readonly kind: 'array'; readonly elements: readonly Model[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly lexeme: string }
  | { readonly kind: 'literal'; readonly lexeme: 'true' | 'false' | 'null' };

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** Valid RFC 8259 number lexemes, including ones no double can hold. */
export const numberLexemeArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.boolean(),
      fc.oneof(
        fc.constant('0'),
        fc.tuple(fc.constantFrom(...'123456789'), digits(0, 28)).map(([a, b]) => a + b),
      ),
      fc.option(digits(1, 8)),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4))),
    )
    .map(
      ([negative, integer, fraction, exponent]) =>
        (negative ? '-' : '') +
        integer +
        (fraction === null ? '' : `.${fraction}`) +
        (exponent === null ? '' : exponent.join('')),
    ),
  fc.constantFrom(
    '90071992547409931234567890',
    '1e400',
    '-0',
    '1.0E+2',
    '-1e-400',
    '0.0',
    '1E-0007',
  ),
);

/** Code units that stress escaping: controls, quotes, slashes, surrogates, non-ASCII. */
const unitArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'c', 'v', 'k', '0', ' ') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/',
      '"',
      '\\',
      '\b',
      '\f',
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\u00e9',
      'e\u0301',
      '中',
      '😀',
      '\ufffd',
      '\ufeff',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((u) => String.fromCharCode(u)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
  },
);

export const stringValueArb: fc.Arbitrary<string> = fc
  .array(unitArb, { maxLength: 6 })
  .map((units) => units.join(''));

/** Short keys from a small alphabet, so escape spellings of equal keys are common. */
export const keyArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('version', 'hooks', 'stop', 'a', 'b', '😀', '\ud800', '\ufffd', '', '__proto__'),
  stringValueArb,
);

export const modelArb: fc.Arbitrary<Model> = fc.letrec<{ node: Model }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .constantFrom<'true' | 'false' | 'null'>('true', 'false', 'null')
      .map((lexeme): Model => ({ kind: 'literal', lexeme })),
    numberLexemeArb.map((lexeme): Model => ({ kind: 'number', lexeme })),
    stringValueArb.map((value): Model => ({ kind: 'string', value })),
    fc.array(tie('node'), { maxLength: 4 }).map((elements): Model => ({ kind: 'array', elements })),
    fc
      .uniqueArray(fc.tuple(keyArb, tie('node')), { selector: ([key]) => key, maxLength: 4 })
      .map((members): Model => ({ kind: 'object', members })),
  ),
})).node;

/** The two-character escapes RFC 8259 offers; SPEC §5 writes these and `\u00XX` for the rest. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** SPEC §5 string escaping, written out code unit by code unit (independent of JSON.stringify). */
export function specCanonicalString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const ch = value.charAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    const next = value.charCodeAt(i + 1);
    const prev = value.charCodeAt(i - 1);
    const paired =
      (isHigh && next >= 0xdc00 && next <= 0xdfff) || (isLow && prev >= 0xd800 && prev <= 0xdbff);
    const shortForm = SHORT_ESCAPES[ch];
    if (shortForm !== undefined) out += shortForm;
    else if (unit < 0x20 || ((isHigh || isLow) && !paired)) {
      out += `\\u${unit.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** SPEC §5 canonical form of a duplicate-free model, computed without src/json. */
export function specCanonical(model: Model): string {
  switch (model.kind) {
    case 'object': {
      const members = [...model.members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${members.map(([k, v]) => `${specCanonicalString(k)}:${specCanonical(v)}`).join(',')}}`;
    }
    case 'array':
      return `[${model.elements.map(specCanonical).join(',')}]`;
    case 'string':
      return specCanonicalString(model.value);
    default:
      return model.lexeme;
  }
}

// ---------------------------------------------------------------------------------------------
// Randomised rendering: whitespace, escape spelling, member order, optional duplicate keys.

/** A small deterministic PRNG (mulberry32), so one fast-check seed fixes every rendering choice. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RenderOptions {
  /** Probability that an object gets an extra member repeating one of its keys. */
  readonly duplicateRate: number;
}

export function render(model: Model, seed: number, options: RenderOptions): string {
  const random = prng(seed);
  const chance = (p: number) => random() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  const ws = (): string => {
    if (chance(0.5)) return '';
    let out = '';
    const count = 1 + Math.floor(random() * 3);
    for (let i = 0; i < count; i++) out += pick([' ', '\t', '\n', '\r']);
    return out;
  };
  const hex = (unit: number): string =>
    [...unit.toString(16).padStart(4, '0')]
      .map((d) => (chance(0.5) ? d.toUpperCase() : d))
      .join('');
  const uEscape = (unit: number) => `\\u${hex(unit)}`;

  const str = (value: string): string => {
    let out = '"';
    for (const ch of value) {
      const unit = ch.charCodeAt(0);
      if (ch.length === 2) {
        // A surrogate pair: literal, or both halves escaped.
        out += chance(0.3) ? uEscape(unit) + uEscape(ch.charCodeAt(1)) : ch;
      } else if (unit >= 0xd800 && unit <= 0xdfff) {
        out += uEscape(unit); // a lone surrogate has no UTF-8 spelling
      } else if (ch === '"' || ch === '\\' || unit < 0x20) {
        const shortForm = SHORT_ESCAPES[ch];
        out += shortForm !== undefined && chance(0.6) ? shortForm : uEscape(unit);
      } else if (ch === '/' && chance(0.5)) {
        out += '\\/';
      } else {
        out += chance(0.15) ? uEscape(unit) : ch;
      }
    }
    return `${out}"`;
  };

  const node = (m: Model): string => {
    switch (m.kind) {
      case 'object': {
        const members = [...m.members];
        for (let i = members.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          const a = members[i];
          const b = members[j];
          if (a !== undefined && b !== undefined) {
            members[i] = b;
            members[j] = a;
          }
        }
        if (members.length > 0 && chance(options.duplicateRate)) {
          const [key] = pick(members);
          const [, value] = pick(members);
          members.splice(Math.floor(random() * (members.length + 1)), 0, [key, value]);
        }
        if (members.length === 0) return `{${ws()}}`;
        const parts = members.map(([k, v]) => `${ws()}${str(k)}${ws()}:${ws()}${node(v)}${ws()}`);
        return `{${parts.join(',')}}`;
      }
      case 'array':
        if (m.elements.length === 0) return `[${ws()}]`;
        return `[${m.elements.map((e) => `${ws()}${node(e)}${ws()}`).join(',')}]`;
      case 'string':
        return str(m.value);
      default:
        return m.lexeme;
    }
  };

  return ws() + node(model) + ws();
}

// ---------------------------------------------------------------------------------------------
// Byte mutations.

const INTERESTING_BYTES = [
  0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c, 0x00, 0x2d,
  0x2b, 0x2e, 0x30, 0x31, 0x65, 0x75, 0x2f, 0x27, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xe0, 0xed, 0xef,
  0xf0, 0xf4, 0xf5, 0xff,
];

const INSERTIONS: readonly (readonly number[])[] = [
  [0xef, 0xbb, 0xbf], // BOM (at 0 it is refused; elsewhere it is U+FEFF)
  [0xc0, 0x80], // overlong NUL
  [0xe0, 0x80, 0xaf], // overlong '/'
  [0xed, 0xa0, 0x80], // surrogate code point
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xe4, 0xb8], // truncated 中
  [0x80], // stray continuation
  [0xc2, 0xa0], // U+00A0, not JSON whitespace
  [0x2f, 0x2f], // '//'
  [0x2c], // ','
];

export type Mutation =
  | { readonly op: 'insert'; readonly at: number; readonly byte: number }
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'flip'; readonly at: number; readonly bit: number }
  | { readonly op: 'splice'; readonly at: number; readonly bytes: readonly number[] }
  | { readonly op: 'bom' };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('insert' as const),
      at: fc.nat(),
      byte: fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.integer({ min: 0, max: 255 })),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('flip' as const),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('splice' as const),
      at: fc.nat(),
      bytes: fc.constantFrom(...INSERTIONS),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'bom' as const }) },
);

export function mutate(input: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let bytes = Array.from(input);
  for (const m of mutations) {
    if (m.op === 'bom') {
      bytes = [0xef, 0xbb, 0xbf, ...bytes];
      continue;
    }
    if (bytes.length === 0 && m.op !== 'insert' && m.op !== 'splice') continue;
    const at = m.at % (bytes.length + (m.op === 'insert' || m.op === 'splice' ? 1 : 0));
    if (m.op === 'insert') bytes.splice(at, 0, m.byte);
    else if (m.op === 'splice') bytes.splice(at, 0, ...m.bytes);
    else if (m.op === 'delete') bytes.splice(at, 1);
    else bytes[at] = (bytes[at] ?? 0) ^ (1 << m.bit);
  }
  return Uint8Array.from(bytes);
}
