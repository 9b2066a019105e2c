// Issue 10 as a property: documents whose every container is written in its own random layout
// (items on lines with any step, or on one line with any spacing), CRLF or LF, with or without
// a final newline. The generator records each container's layout, which is the oracle: the
// installed entry, and a new `stop` or `hooks`, must take the recorded layout of their
// reference neighbour (or the file's form when there is none), and Remove after Install must
// give the input back wherever `stop` existed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinuxUserShell32212, Operation, plan } from '../../src/index.js';
import { loadJson } from '../../src/json/load.js';
import type { JsonArray, JsonNode, JsonObject } from '../../src/json/tree.js';
import { memberValue } from '../../src/json/tree.js';
import { decodeStrict, fcRuns, propertyTimeout, utf8 } from '../support/common.js';
import { bytesEqual, ownedEntry, show } from './support.js';

const RUNS = fcRuns(200);
const SHELL = LinuxUserShell32212;
const EXECUTABLE = '/opt/agent/bin/agent';
const SELECTOR = '/opt/agent/binding';

// ---------------------------------------------------------------------------------------------
// Styled documents

type Style =
  | { readonly lines: true; readonly step: string; readonly colon: string }
  | {
      readonly lines: false;
      readonly open: string;
      readonly comma: string;
      readonly close: string;
      readonly colon: string;
    };

type Scalar = string | number | boolean;
interface StyledObject {
  readonly kind: 'object';
  readonly style: Style;
  readonly members: readonly (readonly [string, Styled])[];
}
interface StyledArray {
  readonly kind: 'array';
  readonly style: Style;
  readonly items: readonly Styled[];
}
type Styled = Scalar | StyledObject | StyledArray;

const gapArb = fc.constantFrom('', ' ');
const styleArb: fc.Arbitrary<Style> = fc.oneof(
  fc.record({
    lines: fc.constant(true as const),
    step: fc.constantFrom('', ' ', '  ', '   ', '    ', '\t', '\t\t'),
    colon: fc.constantFrom(': ', ':', ' : '),
  }),
  fc.record({
    lines: fc.constant(false as const),
    open: gapArb,
    comma: gapArb,
    close: gapArb,
    colon: fc.constantFrom(': ', ':', ' : '),
  }),
);

const entryArb: fc.Arbitrary<StyledObject> = fc
  .record({
    style: styleArb,
    members: fc.subarray(
      [
        ['command', './hooks/run.sh'],
        ['timeout', 10],
        ['matcher', 'Write'],
        ['failClosed', true],
      ] as const,
      { minLength: 1 },
    ),
  })
  .map(({ style, members }) => ({ kind: 'object', style, members }));

const arrayArb = (minLength: number): fc.Arbitrary<StyledArray> =>
  fc
    .record({ style: styleArb, items: fc.array(entryArb, { minLength, maxLength: 3 }) })
    .map(({ style, items }) => ({ kind: 'array', style, items }));

const EVENTS = ['beforeShellExecution', 'afterFileEdit', 'beforeReadFile', 'sessionStart'];

type StopState = 'absent' | 'empty' | 'filled';

interface Case {
  readonly root: StyledObject;
  readonly eol: string;
  readonly finalNewline: boolean;
  readonly hooks: 'absent' | 'present';
  readonly stop: StopState;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    rootStyle: styleArb,
    hooksStyle: styleArb,
    schemaFirst: fc.boolean(),
    hooks: fc.constantFrom('absent', 'present'),
    events: fc.uniqueArray(
      fc.tuple(fc.constantFrom(...EVENTS), fc.oneof(arrayArb(0), arrayArb(1))),
      {
        selector: ([name]) => name,
        maxLength: 3,
      },
    ),
    stop: fc.constantFrom<StopState>('absent', 'empty', 'filled'),
    stopArray: arrayArb(1),
    stopAt: fc.nat(),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
  })
  .map((c) => {
    const events: [string, Styled][] = [...c.events];
    if (c.hooks === 'present' && c.stop !== 'absent') {
      const stop: StyledArray = c.stop === 'empty' ? { ...c.stopArray, items: [] } : c.stopArray;
      events.splice(c.stopAt % (events.length + 1), 0, ['stop', stop]);
    }
    const members: [string, Styled][] = [['version', 1]];
    if (c.schemaFirst) members.unshift(['$schema', 'https://example.invalid/hooks.json']);
    if (c.hooks === 'present') {
      members.push(['hooks', { kind: 'object', style: c.hooksStyle, members: events }]);
    }
    const stop = c.hooks === 'absent' ? 'absent' : c.stop;
    return {
      root: { kind: 'object', style: c.rootStyle, members },
      eol: c.eol,
      finalNewline: c.finalNewline,
      hooks: c.hooks,
      stop,
    } as const;
  });

function write(node: Styled, indent: string, eol: string): string {
  if (typeof node !== 'object') return JSON.stringify(node);
  const { style } = node;
  const inner = style.lines ? indent + style.step : indent;
  const items =
    node.kind === 'array'
      ? node.items.map((item) => write(item, inner, eol))
      : node.members.map(([k, v]) => JSON.stringify(k) + style.colon + write(v, inner, eol));
  const [open, close] = node.kind === 'array' ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (style.lines) {
    const gap = eol + inner;
    return open + gap + items.join(`,${gap}`) + eol + indent + close;
  }
  return open + style.open + items.join(`,${style.comma}`) + style.close + close;
}

function toValue(node: Styled): unknown {
  if (typeof node !== 'object') return node;
  if (node.kind === 'array') return node.items.map(toValue);
  return Object.fromEntries(node.members.map(([k, v]) => [k, toValue(v)]));
}

// ---------------------------------------------------------------------------------------------
// The oracle: which recorded style each new container must take

/** The shape a container must show, as read back by `signature` (`<I>` = its line's indent). */
interface Expected {
  readonly lines: boolean;
  readonly open: string;
  readonly close: string;
  /** The separator after a comma, comma included. */
  readonly sep: string;
  readonly colon: string;
}

function afterColon(colon: string): string {
  return colon.slice(colon.indexOf(':') + 1);
}

/** `node`'s recorded style as the shape of a container holding several items. */
function expectedOf(node: StyledObject | StyledArray, eol: string): Expected {
  const { style } = node;
  if (style.lines) {
    const open = `${eol}<I>${style.step}`;
    return { lines: true, open, close: `${eol}<I>`, sep: `,${open}`, colon: style.colon };
  }
  const count = node.kind === 'array' ? node.items.length : node.members.length;
  let comma = style.comma;
  if (count === 1 && node.kind === 'object') comma = afterColon(style.colon);
  if (count === 1 && node.kind === 'array') {
    const [only] = node.items;
    comma =
      style.open !== '' || typeof only !== 'object' || only.kind !== 'object'
        ? style.open
        : afterColon(only.style.colon);
  }
  return {
    lines: false,
    open: style.open,
    close: style.close,
    sep: `,${comma}`,
    colon: style.colon,
  };
}

/** Nothing to copy: the step of the nearest container on lines along `path`, else the root. */
function fallbackOf(
  path: readonly (StyledObject | StyledArray)[],
  root: StyledObject,
  eol: string,
): Expected {
  const lines = path.findLast((node) => nonEmpty(node) && node.style.lines);
  const rootShape = expectedOf(root, eol);
  if (lines === undefined || !lines.style.lines) return rootShape;
  const open = `${eol}<I>${lines.style.step}`;
  return { lines: true, open, close: `${eol}<I>`, sep: `,${open}`, colon: rootShape.colon };
}

function nonEmpty(node: StyledObject | StyledArray): boolean {
  return (node.kind === 'array' ? node.items.length : node.members.length) > 0;
}

function asStyledArray(node: Styled | undefined): StyledArray | undefined {
  return typeof node === 'object' && node.kind === 'array' ? node : undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading the output

function text(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.subarray(start, end)).toString('latin1');
}

function lineIndent(bytes: Uint8Array, offset: number): string {
  const line = text(bytes, bytes.lastIndexOf(0x0a, offset - 1) + 1, offset);
  return line.slice(0, line.length - line.trimStart().length);
}

function spans(node: JsonObject | JsonArray): { start: number; end: number }[] {
  return node.kind === 'object'
    ? node.members.map((m) => ({ start: m.key.start, end: m.value.end }))
    : node.elements.map((e) => ({ start: e.start, end: e.end }));
}

function expectShape(
  bytes: Uint8Array,
  node: JsonNode | undefined,
  expected: Expected,
  what: string,
): void {
  if (node?.kind !== 'object' && node?.kind !== 'array') throw new Error(`${what}: missing`);
  const indent = lineIndent(bytes, node.start);
  const relative = (gap: string) => gap.split(`\n${indent}`).join('\n<I>');
  const list = spans(node);
  const first = list[0];
  const last = list.at(-1);
  if (first === undefined || last === undefined) throw new Error(`${what}: empty`);
  const open = text(bytes, node.start + 1, first.start);
  expect(open.includes('\n'), `${what}: one-line/multi-line form`).toBe(expected.lines);
  expect(relative(open), `${what}: gap after the opening bracket`).toBe(expected.open);
  expect(relative(text(bytes, last.end, node.end - 1)), `${what}: closing gap`).toBe(
    expected.close,
  );
  list.slice(1).forEach((item, i) => {
    const sep = relative(text(bytes, list[i]?.end ?? 0, item.start));
    expect(sep, `${what}: separator`).toBe(expected.sep);
  });
  if (node.kind === 'object') {
    for (const m of node.members) {
      expect(text(bytes, m.key.end, m.value.start), `${what}: colon`).toBe(expected.colon);
    }
  }
}

const child = (node: JsonNode | undefined, key: string) =>
  node?.kind === 'object' ? memberValue(node, key) : undefined;

// ---------------------------------------------------------------------------------------------

function check(c: Case): void {
  const { root, eol } = c;
  const input = utf8(write(root, '', eol) + (c.finalNewline ? eol : ''));
  const result = plan({
    document: input,
    operation: Operation.Install,
    specs: [{ executable: EXECUTABLE, selector: SELECTOR }],
    shell: SHELL,
    executableVerified: true,
  });
  if (result.error !== undefined) throw new Error(`install refused ${show(input)}`);
  const bytes = result.desired;
  const entry = ownedEntry(SHELL, EXECUTABLE, SELECTOR);

  // The value: the entry appended last in stop, hooks and stop created last where missing.
  const value = toValue(root) as { hooks?: Record<string, unknown[]> };
  value.hooks ??= {};
  value.hooks.stop ??= [];
  value.hooks.stop.push(entry);
  expect(JSON.parse(decodeStrict(bytes))).toEqual(value);

  const tree = loadJson(bytes);
  const stopNode = child(child(tree.root, 'hooks'), 'stop');
  const placed = stopNode?.kind === 'array' ? stopNode.elements.at(-1) : undefined;
  if (placed === undefined) throw new Error('no entry');
  expect(Object.keys(JSON.parse(text(bytes, placed.start, placed.end)))).toEqual([
    'type',
    'command',
    'timeout',
    'failClosed',
  ]);

  // The recorded references.
  const hooks = root.members.find(([k]) => k === 'hooks')?.[1] as StyledObject | undefined;
  const events = hooks?.members ?? [];
  const stopAt = events.findIndex(([k]) => k === 'stop');
  const stop = asStyledArray(events[stopAt]?.[1]);
  const arrays = events.map(([k, v]) => (k === 'stop' ? undefined : asStyledArray(v)));
  // An empty stop copies its nearest filled sibling; a new stop, the last filled event.
  const nearest: StyledArray[] = [];
  const at = stopAt < 0 ? arrays.length : stopAt;
  for (let d = 1; d <= arrays.length; d++) {
    for (const array of stopAt < 0 ? [arrays[at - d]] : [arrays[at - d], arrays[at + d]]) {
      if (array !== undefined && array.items.length > 0) nearest.push(array);
    }
  }
  const twin = stop !== undefined && stop.items.length > 0 ? stop : nearest[0];
  const reference = twin?.items.at(-1) as StyledObject | undefined;
  const path = [
    root,
    ...(hooks === undefined ? [] : [hooks]),
    ...(stop === undefined ? [] : [stop]),
  ];
  const fallback = fallbackOf(path, root, eol);

  const entryShape = reference === undefined ? fallback : expectedOf(reference, eol);
  expectShape(bytes, placed, entryShape, 'entry');
  if (stop === undefined || stop.items.length === 0) {
    const stopShape = twin === undefined ? fallback : expectedOf(twin, eol);
    expectShape(bytes, stopNode, { ...stopShape, sep: '' }, 'stop');
  }
  if (hooks === undefined || hooks.members.length === 0) {
    expectShape(bytes, child(tree.root, 'hooks'), { ...fallback, sep: '' }, 'hooks');
  } else if (stop === undefined) {
    // The new stop member: keyed and separated like the members before it.
    const hooksNode = child(tree.root, 'hooks') as JsonObject;
    const keys = hooksNode.members;
    const before = keys.at(-2);
    const stopKey = keys.at(-1);
    if (before === undefined || stopKey === undefined) throw new Error('no members');
    const expected = expectedOf(hooks, eol);
    const indent = lineIndent(bytes, hooksNode.start);
    const sep = text(bytes, before.value.end, stopKey.key.start).split(`\n${indent}`).join('\n<I>');
    expect(sep, 'new stop: separator').toBe(expected.sep);
    expect(text(bytes, stopKey.key.end, stopKey.value.start), 'new stop: colon').toBe(
      expected.colon,
    );
  }
  if (stop !== undefined && stop.items.length > 0) {
    const stopExpected = expectedOf(stop, eol);
    const elements = (stopNode as JsonArray).elements;
    const previous = elements.at(-2) as JsonNode;
    const indent = lineIndent(bytes, (stopNode as JsonArray).start);
    const sep = text(bytes, previous.end, placed.start).split(`\n${indent}`).join('\n<I>');
    expect(sep, 'entry: separator in stop').toBe(stopExpected.sep);
  }

  // Remove after Install gives the input back wherever stop existed.
  if (stop !== undefined) {
    const removed = plan({
      document: bytes,
      operation: Operation.Remove,
      previous: result.receipt ?? null,
    });
    if (!bytesEqual(removed.desired, input)) {
      throw new Error(`remove did not restore ${show(input)}: ${show(removed.desired)}`);
    }
  }
}

describe('issue 10: Install in documents of random per-container layouts', () => {
  it(
    'places the entry, a new stop and a new hooks in the recorded layout of their reference (else the file’s form) and Remove restores the input where stop existed, or a layout rule broke',
    () => {
      fc.assert(fc.property(caseArb, check), { numRuns: RUNS });
    },
    propertyTimeout(RUNS),
  );
});
