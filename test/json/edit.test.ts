// Edits follow the document's formatting (SPEC §4): on JSON.stringify(v, null, indent) input,
// every edit yields exactly JSON.stringify(v2, null, indent) with the same line ends.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanBudget } from '../../src/json/budget.js';
import {
  appendElement,
  appendMember,
  type ByteEdit,
  removeElement,
  replaceNode,
} from '../../src/json/edit.js';
import { detectLayout, NEW_FILE_LAYOUT } from '../../src/json/format.js';
import { loadJson } from '../../src/json/load.js';
import { spliceBytes } from '../../src/json/splice.js';
import { decodeStrict, fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import {
  asArray,
  edited,
  editFor,
  type Json,
  nodeAt,
  type Op,
  type Path,
  rootOf,
} from './edits.js';

function toJson(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  throw new Error('not JSON');
}

interface Style {
  readonly indent: 0 | 2 | 4 | '\t';
  readonly crlf: boolean;
  readonly finalNewline: boolean;
}

const STYLES: readonly Style[] = ([0, 2, 4, '\t'] as const).flatMap((indent) =>
  [false, true].flatMap((crlf) =>
    [false, true].map((finalNewline) => ({ indent, crlf, finalNewline })),
  ),
);

const styleName = (s: Style) =>
  `indent ${JSON.stringify(s.indent)}, ${s.crlf ? 'CRLF' : 'LF'}, ${s.finalNewline ? 'final newline' : 'no final newline'}`;

function stringify(value: Json, style: Style): string {
  const text = JSON.stringify(value, null, style.indent) + (style.finalNewline ? '\n' : '');
  return style.crlf ? text.replaceAll('\n', '\r\n') : text;
}

function valueAt(value: Json, path: Path): Json {
  let current: Json | undefined = value;
  for (const step of path) {
    if (Array.isArray(current) && typeof step === 'number') current = current[step];
    else if (isObject(current) && typeof step === 'string') current = current[step];
    else current = undefined;
  }
  if (current === undefined) throw new Error(`no value at ${JSON.stringify(path)}`);
  return current;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value after the operation, as a host would build it in JS. */
function applyToValue(v: Json, op: Op): Json {
  const copy = toJson(JSON.parse(JSON.stringify(v)));
  if (op.op === 'replaceNode') {
    const parent = valueAt(copy, op.path.slice(0, -1));
    const last = op.path.at(-1);
    if (Array.isArray(parent) && typeof last === 'number') parent[last] = op.value;
    else if (isObject(parent) && typeof last === 'string') parent[last] = op.value;
    else throw new Error('bad replace path');
    return copy;
  }
  const target = valueAt(copy, op.path);
  if (op.op === 'appendElement' && Array.isArray(target)) target.push(op.value);
  else if (op.op === 'removeElement' && Array.isArray(target)) target.splice(op.index, 1);
  else if (op.op === 'appendMember' && isObject(target)) target[op.key] = op.value;
  else throw new Error('bad op target');
  return copy;
}

/** Applies `op` to JSON.stringify(v) in `style` and checks the bytes against the oracle. */
function checkEdit(v: Json, style: Style, op: Op): void {
  const input = utf8(stringify(v, style));
  const before = Uint8Array.from(input);
  const tree = loadJson(input);
  const edit = editFor(tree, op);
  const out = spliceBytes(input, edit);
  const expected = stringify(applyToValue(v, op), style);
  expect(new TextDecoder().decode(out)).toBe(expected);
  // The output limit check trusts this delta instead of scanning the output again.
  expect(scanBudget(input).nodes + edit.nodes, 'node delta').toBe(scanBudget(out).nodes);
  expect(out).toEqual(utf8(expected));
  expect(input).toEqual(before);
  expect(out.buffer).not.toBe(input.buffer);
}

// ---------------------------------------------------------------------------------------------

function containerPaths(
  value: Json,
  path: Path = [],
): { arrays: Path[]; objects: Path[]; all: Path[] } {
  const result = { arrays: [] as Path[], objects: [] as Path[], all: [path] as Path[] };
  const children: [string | number, Json][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : isObject(value)
      ? Object.entries(value)
      : [];
  if (Array.isArray(value)) result.arrays.push(path);
  if (isObject(value)) result.objects.push(path);
  for (const [step, child] of children) {
    const sub = containerPaths(child, [...path, step]);
    result.arrays.push(...sub.arrays);
    result.objects.push(...sub.objects);
    result.all.push(...sub.all);
  }
  return result;
}

const valueArb: fc.Arbitrary<Json> = fc
  .jsonValue({ maxDepth: 3, stringUnit: 'grapheme' })
  .map((value) => toJson(JSON.parse(JSON.stringify(value))));

const docArb: fc.Arbitrary<Json> = fc
  .record({
    extra: fc.uniqueArray(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 6 }), valueArb), {
      selector: ([key]) => key,
      maxLength: 3,
    }),
    list: fc.array(valueArb, { maxLength: 4 }),
    listKey: fc.constantFrom('stop', 'items'),
    listFirst: fc.boolean(),
  })
  .map(({ extra, list, listKey, listFirst }) => {
    const others = extra.filter(([key]) => key !== 'version' && key !== listKey);
    const listEntry: [string, Json] = [listKey, list];
    const entries: [string, Json][] = listFirst
      ? [listEntry, ['version', 1], ...others]
      : [['version', 1], ...others, listEntry];
    return toJson(Object.fromEntries(entries));
  });

const styleArb: fc.Arbitrary<Style> = fc.constantFrom(...STYLES);

/** Keys a host could append; none is an array index, which JS would move to the front. */
const NEW_KEYS = ['added', 'new key', 'ünïcode', '😀 new', 'stop', 'hooks', ''];

function opArb(v: Json): fc.Arbitrary<Op> {
  const { arrays, objects, all } = containerPaths(v);
  const nonEmpty = arrays.filter((p) => {
    const target = valueAt(v, p);
    return Array.isArray(target) && target.length > 0;
  });
  const options: fc.Arbitrary<Op>[] = [
    fc.record({
      op: fc.constant('appendElement' as const),
      path: fc.constantFrom(...arrays),
      value: valueArb,
    }),
    fc.record({
      op: fc.constant('replaceNode' as const),
      path: fc.constantFrom(...all.filter((p) => p.length > 0)),
      value: valueArb,
    }),
  ];
  const appendable = objects.flatMap((path) => {
    const target = valueAt(v, path);
    const free = NEW_KEYS.filter((key) => isObject(target) && !Object.hasOwn(target, key));
    return free.length === 0 ? [] : [{ path, free }];
  });
  if (appendable.length > 0) {
    options.push(
      fc.constantFrom(...appendable).chain(({ path, free }) =>
        fc.record({
          op: fc.constant('appendMember' as const),
          path: fc.constant(path),
          key: fc.constantFrom(...free),
          value: valueArb,
        }),
      ),
    );
  }
  if (nonEmpty.length > 0) {
    options.push(
      fc.constantFrom(...nonEmpty).chain((path) => {
        const target = valueAt(v, path);
        const length = Array.isArray(target) ? target.length : 1;
        return fc.record({
          op: fc.constant('removeElement' as const),
          path: fc.constant(path),
          index: fc.nat({ max: length - 1 }),
        });
      }),
    );
  }
  return fc.oneof(...options);
}

const RUNS = fcRuns(300);

describe('edits on JSON.stringify(v, null, indent) reproduce JSON.stringify(v2, null, indent)', () => {
  it(
    'for random values, targets, indents, line ends and final newlines, or an edit breaks the document style',
    () => {
      fc.assert(
        fc.property(
          docArb.chain((v) => fc.tuple(fc.constant(v), styleArb, opArb(v))),
          ([v, style, op]) => {
            checkEdit(v, style, op);
          },
        ),
        { numRuns: RUNS },
      );
    },
    propertyTimeout(RUNS),
  );

  const base: Json = {
    version: 1,
    name: 'naïve 中文 😀',
    hooks: {
      stop: [{ type: 'command', command: '/opt/a b/agent', timeout: 5, failClosed: false }],
      start: [],
    },
    empty: {},
    list: ['a', ['nested', []], { k: [] }, 3],
  };
  const entry: Json = { type: 'command', command: "/opt/x'y/bin", timeout: 5, failClosed: false };

  const scenarios: readonly [string, Op][] = [
    ['append to an empty array', { op: 'appendElement', path: ['hooks', 'start'], value: entry }],
    [
      'append to a one-element array',
      { op: 'appendElement', path: ['hooks', 'stop'], value: entry },
    ],
    ['append to a nested empty array', { op: 'appendElement', path: ['list', 1, 1], value: [] }],
    ['append an empty object', { op: 'appendElement', path: ['list'], value: {} }],
    [
      'append a member to an empty object',
      { op: 'appendMember', path: ['empty'], key: 'k', value: entry },
    ],
    [
      'append a member to the root',
      { op: 'appendMember', path: [], key: 'added', value: { a: [1, 'é'] } },
    ],
    ['append hooks: {} to the root', { op: 'appendMember', path: [], key: 'more', value: {} }],
    ['remove the only element', { op: 'removeElement', path: ['hooks', 'stop'], index: 0 }],
    ['remove the first element', { op: 'removeElement', path: ['list'], index: 0 }],
    ['remove a middle element', { op: 'removeElement', path: ['list'], index: 2 }],
    ['remove the last element', { op: 'removeElement', path: ['list'], index: 3 }],
    ['replace an entry object', { op: 'replaceNode', path: ['hooks', 'stop', 0], value: entry }],
    [
      'replace a scalar by a container',
      { op: 'replaceNode', path: ['list', 3], value: { z: [true] } },
    ],
    ['replace a container by a scalar', { op: 'replaceNode', path: ['hooks'], value: null }],
  ];

  const table = scenarios.flatMap(([label, op]) =>
    STYLES.map((style) => [`${label} (${styleName(style)})`, style, op] as const),
  );

  it.each(table)('%s, or that edit shape breaks the document style', (_label, style, op) => {
    checkEdit(base, style, op);
  });
});

describe('detectLayout', () => {
  it.each(STYLES)(
    'reads indent, colon, comma and line end of %o, or new text would not match the document',
    (style) => {
      const tree = loadJson(utf8(stringify({ version: 1, a: [1, 2], b: 'x' }, style)));
      const layout = detectLayout(tree.bytes, rootOf(tree));
      const unit =
        style.indent === 0 ? '' : style.indent === '\t' ? '\t' : ' '.repeat(style.indent);
      // The whole shape, so a field one form does not use cannot carry stray text either.
      expect(layout.root).toEqual(
        unit === ''
          ? { lines: false, step: '', open: '', comma: '', close: '', colon: ':' }
          : { lines: true, step: unit, open: '', comma: '', close: '', colon: ': ' },
      );
      if (unit !== '') expect(layout.eol).toBe(style.crlf ? '\r\n' : '\n');
    },
  );

  it('reads a spaced one-line root whole, or a one-line file gets stray step text or lost gaps', () => {
    const tree = loadJson(utf8('{ "version": 1, "hooks": {} }'));
    expect(detectLayout(tree.bytes, rootOf(tree)).root).toEqual({
      lines: false,
      step: '',
      open: ' ',
      comma: ' ',
      close: ' ',
      colon: ': ',
    });
  });

  it('gives a new file the JSON.stringify(doc, null, 2) layout, or created files look foreign', () => {
    expect(NEW_FILE_LAYOUT).toEqual({
      eol: '\n',
      root: { lines: true, step: '  ', open: '', comma: '', close: '', colon: ': ' },
    });
  });
});

describe('spliceBytes', () => {
  const text = '{"version":1,"name":"中文 😀 é","stop":[1,2]}';

  it('never writes to its input and returns fresh memory, or a caller-owned buffer is mutated or aliased', () => {
    const input = utf8(text);
    const before = Uint8Array.from(input);
    const tree = loadJson(input);
    const edits: ByteEdit[] = [
      { start: 0, end: 0, insert: ' ', nodes: 0 },
      { start: tree.bytes.length, end: tree.bytes.length, insert: '\n', nodes: 0 },
      { start: 1, end: 1, insert: '', nodes: 0 },
      { start: 0, end: tree.bytes.length, insert: '{}', nodes: 0 },
    ];
    for (const edit of edits) {
      const out = spliceBytes(input, edit);
      expect(input).toEqual(before);
      expect(out.buffer).not.toBe(input.buffer);
      out.fill(0);
      expect(input).toEqual(before);
    }
    // Even an empty edit returns a copy, not the input.
    const same = spliceBytes(input, { start: 3, end: 3, insert: '', nodes: 0 });
    expect(same).toEqual(input);
    expect(same).not.toBe(input);
    expect(same.buffer).not.toBe(input.buffer);
  });

  it('splices at byte offsets after non-ASCII content, or edits land in the middle of a character', () => {
    const input = utf8(text);
    const tree = loadJson(input);
    const stop = nodeAt(tree.root, ['stop']);
    const edit = appendElement(
      tree.bytes,
      detectLayout(tree.bytes, rootOf(tree)),
      asArray(stop),
      'ü',
    );
    // 中文 😀 é precede the edit point: its byte offset is 7 past its UTF-16 offset.
    expect(edit.start).toBe(input.indexOf(0x5d));
    expect(edit.start).toBe(text.indexOf(']') + 7);
    const out = spliceBytes(input, edit);
    expect(decodeStrict(out)).toBe('{"version":1,"name":"中文 😀 é","stop":[1,2,"ü"]}');
    const removal = removeElement(asArray(stop), 0);
    expect(removal.start).toBe(text.indexOf('[1') + 1 + 7);
    const removed = spliceBytes(input, removal);
    expect(new TextDecoder().decode(removed)).toBe('{"version":1,"name":"中文 😀 é","stop":[2]}');
  });

  it('reads a view into a larger buffer at its own offset, or byteOffset is ignored', () => {
    const backing = new Uint8Array([0x58, ...utf8(text), 0x58]);
    const view = backing.subarray(1, backing.length - 1);
    const tree = loadJson(view);
    const stop = asArray(nodeAt(tree.root, ['stop']));
    const out = spliceBytes(view, removeElement(stop, 1));
    expect(new TextDecoder().decode(out)).toBe('{"version":1,"name":"中文 😀 é","stop":[1]}');
    expect(backing[0]).toBe(0x58);
    expect(backing.at(-1)).toBe(0x58);
  });

  it('reads layout, indents and gaps of a view at its own offset, or separators are read from the wrong bytes', () => {
    const value: Json = { version: 1, name: '中文 😀 é', stop: [1, [2]] };
    for (const style of STYLES) {
      const pretty = stringify(value, style);
      const backing = new Uint8Array([0x0a, 0x20, 0x58, ...utf8(pretty), 0x58]);
      const view = backing.subarray(3, backing.length - 1);
      const tree = loadJson(view);
      const layout = detectLayout(tree.bytes, rootOf(tree));
      const stop = asArray(nodeAt(tree.root, ['stop']));
      const appended = spliceBytes(view, appendElement(tree.bytes, layout, stop, { k: 'ü' }));
      expect(new TextDecoder().decode(appended)).toBe(
        stringify({ ...value, stop: [1, [2], { k: 'ü' }] }, style),
      );
      const member = spliceBytes(view, appendMember(tree.bytes, layout, rootOf(tree), 'ü', [3]));
      expect(new TextDecoder().decode(member)).toBe(stringify({ ...value, ü: [3] }, style));
      const nested = asArray(nodeAt(tree.root, ['stop', 1]));
      const replaced = spliceBytes(view, replaceNode(tree.bytes, layout, nested, { a: [4] }));
      expect(new TextDecoder().decode(replaced)).toBe(
        stringify({ ...value, stop: [1, { a: [4] }] }, style),
      );
    }
  });
});

describe('replaceNode copies the form of the node it replaces, else of its siblings', () => {
  const replaced = (text: string, path: Path, value: Json): string =>
    edited(text, { op: 'replaceNode', path, value });

  // Red: the replaced object's own spacing is ignored, so an updated entry takes another form.
  it('writes a new object in the spacing of the object it replaces, or an updated entry changes form', () => {
    const text = '{\n  "list": [\n    { "a" : 1, "b" : 2 },\n    {\n      "c": 3\n    }\n  ]\n}\n';
    expect(replaced(text, ['list', 0], { x: 1, y: 2 })).toBe(
      '{\n  "list": [\n    { "x" : 1, "y" : 2 },\n    {\n      "c": 3\n    }\n  ]\n}\n',
    );
  });

  // Red: a scalar replaced by an object takes the default form, not that of its sibling objects.
  it('writes an object over a scalar in the form of a sibling object, or it ignores its neighbours', () => {
    const text = '{\n  "list": [\n    { "a" : 1 },\n    "old"\n  ]\n}\n';
    expect(replaced(text, ['list', 1], { x: 1 })).toBe(
      '{\n  "list": [\n    { "a" : 1 },\n    { "x" : 1 }\n  ]\n}\n',
    );
  });

  // Red: an empty object is taken as a model, or the root is looked up as someone's child.
  it('writes over an empty root object in the default form, or replacing the root fails', () => {
    expect(replaced('{}', [], { x: 1 })).toBe('{"x":1}');
  });
});
