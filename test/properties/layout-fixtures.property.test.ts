// Issue 10: on real-world layouts that are not JSON.stringify output (fixtures/layouts/, shapes
// seen in public hooks.json files), Install writes the entry, and a new `stop` or `hooks`
// member, the way the neighbours are written; and Remove after Install gives the input back
// wherever `stop` existed. Shapes are read here from node spans, independently of src/json's
// layout code: the gaps after `{`/`[`, before `}`/`]`, between items and after keys.

import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinuxUserShell32212, Operation, plan } from '../../src/index.js';
import { loadJson } from '../../src/json/load.js';
import type { JsonArray, JsonNode, JsonObject } from '../../src/json/tree.js';
import { memberValue } from '../../src/json/tree.js';
import { decodeStrict, fcRuns } from '../support/common.js';
import { bytesEqual, posixPathArb, show } from './support.js';

const DIR = new URL('../../fixtures/layouts/', import.meta.url);
const FIXTURES = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();
const RUNS = fcRuns(10);
const SHELL = LinuxUserShell32212;
const ENTRY_KEYS = ['type', 'command', 'timeout', 'failClosed'];

// ---------------------------------------------------------------------------------------------
// Reading shapes from spans

function text(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.subarray(start, end)).toString('latin1');
}

function lineIndent(bytes: Uint8Array, offset: number): string {
  const line = text(bytes, bytes.lastIndexOf(0x0a, offset - 1) + 1, offset);
  return line.slice(0, line.length - line.trimStart().length);
}

/** Whether only spaces and tabs precede `offset` on its line. */
function startsLine(bytes: Uint8Array, offset: number): boolean {
  return text(bytes, bytes.lastIndexOf(0x0a, offset - 1) + 1, offset).trim() === '';
}

/** How a container writes itself; indentation after a line end is relative to its own line. */
interface Signature {
  readonly lines: boolean;
  readonly open: string;
  readonly close: string;
  /** Distinct separators between items (comma included), in order of appearance. */
  readonly seps: readonly string[];
  /** Distinct key-to-value gaps (colon included). */
  readonly colons: readonly string[];
}

function items(node: JsonObject | JsonArray): { start: number; end: number }[] {
  return node.kind === 'object'
    ? node.members.map((m) => ({ start: m.key.start, end: m.value.end }))
    : node.elements.map((e) => ({ start: e.start, end: e.end }));
}

function signature(bytes: Uint8Array, node: JsonObject | JsonArray): Signature {
  const indent = lineIndent(bytes, node.start);
  const relative = (gap: string) => gap.split(`\n${indent}`).join('\n<I>');
  const list = items(node);
  const first = list[0];
  const last = list.at(-1);
  if (first === undefined || last === undefined) throw new Error('empty container');
  const open = text(bytes, node.start + 1, first.start);
  const seps = list.slice(1).map((item, i) => relative(text(bytes, list[i]?.end ?? 0, item.start)));
  const colons =
    node.kind === 'object' ? node.members.map((m) => text(bytes, m.key.end, m.value.start)) : [];
  return {
    lines: open.includes('\n'),
    open: relative(open),
    close: relative(text(bytes, last.end, node.end - 1)),
    seps: [...new Set(seps)],
    colons: [...new Set(colons)],
  };
}

/** A single-member neighbour shows no comma: lines step like the first member, else the colon's space. */
function expectedSeps(reference: Signature): readonly string[] {
  if (reference.seps.length > 0) return reference.seps;
  if (reference.lines) return [`,${reference.open}`];
  const colon = reference.colons[0] ?? ':';
  return [`,${colon.slice(colon.indexOf(':') + 1)}`];
}

function asObject(node: JsonNode | undefined): JsonObject | undefined {
  return node?.kind === 'object' ? node : undefined;
}

function asArray(node: JsonNode | undefined): JsonArray | undefined {
  return node?.kind === 'array' ? node : undefined;
}

function lastObject(array: JsonArray | undefined): JsonObject | undefined {
  return array?.elements.findLast(
    (e): e is JsonObject => e.kind === 'object' && e.members.length > 0,
  );
}

/** Event arrays of `hooks` other than `skip`, nearest to `at` first (earlier before later). */
function nearestArrays(hooks: JsonObject, at: number, skip: string): JsonArray[] {
  const arrays = hooks.members.map((m) => (m.key.value === skip ? undefined : asArray(m.value)));
  const found: JsonArray[] = [];
  for (let d = 1; d < arrays.length + 1; d++) {
    for (const array of [arrays[at - d], arrays[at + d]])
      if (array !== undefined) found.push(array);
  }
  return found;
}

/** The file's own form: the root's step and the colon after `version`. */
function fileDefault(bytes: Uint8Array, root: JsonObject): Signature {
  const version = root.members.find((m) => m.key.value === 'version');
  if (version === undefined) throw new Error('fixture without version');
  const step = lineIndent(bytes, version.key.start);
  return {
    lines: true,
    open: `\n<I>${step}`,
    close: '\n<I>',
    seps: [`,\n<I>${step}`],
    colons: [text(bytes, version.key.end, version.value.start)],
  };
}

function expectShape(actual: Signature, reference: Signature, what: string): void {
  expect(actual.lines, `${what}: one-line/multi-line form`).toBe(reference.lines);
  expect(actual.open, `${what}: gap after the opening bracket`).toBe(reference.open);
  expect(actual.close, `${what}: gap before the closing bracket`).toBe(reference.close);
  for (const colon of actual.colons) expect(reference.colons, `${what}: colon`).toContain(colon);
  const seps = expectedSeps(reference);
  for (const sep of actual.seps) expect(seps, `${what}: separator`).toContain(sep);
}

// ---------------------------------------------------------------------------------------------

interface Loaded {
  readonly bytes: Uint8Array;
  readonly root: JsonObject;
  readonly hooks: JsonObject | undefined;
  readonly stop: JsonArray | undefined;
}

function load(bytes: Uint8Array): Loaded {
  const root = asObject(loadJson(bytes).root);
  if (root === undefined) throw new Error('root is not an object');
  const hooks = asObject(memberValue(root, 'hooks'));
  const stop = hooks && asArray(memberValue(hooks, 'stop'));
  return { bytes, root, hooks, stop };
}

function install(input: Uint8Array, executable: string, selector: string) {
  const result = plan({
    document: input,
    operation: Operation.Install,
    specs: [{ executable, selector }],
    shell: SHELL,
    executableVerified: true,
  });
  expect(result.error, 'install refused').toBeUndefined();
  return result;
}

function checkInstall(name: string, input: Uint8Array, executable: string, selector: string): void {
  const before = load(input);
  const result = install(input, executable, selector);
  const after = load(result.desired);
  const { bytes } = after;
  const entry = lastObject(after.stop);
  if (after.stop === undefined || entry === undefined) throw new Error('no entry in stop');
  expect(Object.keys(JSON.parse(text(bytes, entry.start, entry.end))), 'entry keys').toEqual(
    ENTRY_KEYS,
  );

  // The reference neighbour: the entry it follows in stop, else the nearest sibling array's.
  const hooks = before.hooks;
  const stopAt = hooks?.members.findIndex((m) => m.key.value === 'stop') ?? -1;
  const siblings =
    hooks === undefined
      ? []
      : nearestArrays(hooks, stopAt < 0 ? hooks.members.length : stopAt, 'stop');
  const reference =
    lastObject(before.stop) ?? siblings.map(lastObject).find((e) => e !== undefined);
  const expected =
    reference === undefined
      ? fileDefault(before.bytes, before.root)
      : signature(before.bytes, reference);
  expectShape(signature(bytes, entry), expected, `${name}: entry`);
  if (reference !== undefined && startsLine(before.bytes, reference.start)) {
    expect(startsLine(bytes, entry.start), 'entry on a line of its own').toBe(true);
    const own = (b: Uint8Array, node: JsonNode, array: JsonArray) =>
      lineIndent(b, node.start).slice(lineIndent(b, array.start).length);
    const referenceArray = before.stop?.elements.length
      ? before.stop
      : siblings.find((s) => lastObject(s) === reference);
    if (referenceArray !== undefined) {
      expect(own(bytes, entry, after.stop), 'entry indent').toBe(
        own(before.bytes, reference, referenceArray),
      );
    }
  }

  if (before.stop === undefined && hooks !== undefined && hooks.members.length > 0) {
    // A new stop member: shaped like the nearest event array, keyed like the last member.
    const model = siblings.find((s) => s.elements.length > 0);
    const stopShape = signature(bytes, after.stop);
    if (model !== undefined) {
      const modelShape = signature(before.bytes, model);
      expect(stopShape.lines, 'new stop: form').toBe(modelShape.lines);
      expect(stopShape.open, 'new stop: opening gap').toBe(modelShape.open);
      expect(stopShape.close, 'new stop: closing gap').toBe(modelShape.close);
    }
    const hooksAfter = after.hooks as JsonObject;
    const expectedHooks = signature(before.bytes, hooks);
    const actualHooks = signature(bytes, hooksAfter);
    for (const sep of actualHooks.seps)
      expect(expectedSeps(expectedHooks), 'new stop: separator').toContain(sep);
    for (const colon of actualHooks.colons)
      expect(expectedHooks.colons, 'new stop: colon').toContain(colon);
  }
  if (
    before.hooks === undefined ||
    before.hooks.members.length === 0 ||
    before.stop?.elements.length === 0
  ) {
    // Nothing to copy: the containers the install fills take the file's form.
    const fresh = fileDefault(before.bytes, before.root);
    expectShape(signature(bytes, after.stop), { ...fresh, colons: [] }, `${name}: new stop`);
    if (before.hooks === undefined || before.hooks.members.length === 0) {
      expectShape(signature(bytes, after.hooks as JsonObject), fresh, `${name}: new hooks`);
    }
  }

  // Remove after Install gives the input bytes back wherever stop existed.
  if (before.stop !== undefined) {
    const removed = plan({
      document: result.desired,
      operation: Operation.Remove,
      previous: result.receipt ?? null,
    });
    expect(removed.error).toBeUndefined();
    if (!bytesEqual(removed.desired, input)) {
      throw new Error(`remove did not restore ${show(input)}: ${show(removed.desired)}`);
    }
  }
}

describe('issue 10: inserted text looks like its neighbours in real-world layouts', () => {
  it('has fixtures to check, or the table below is vacuous', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(12);
    for (const name of FIXTURES) {
      const bytes = new Uint8Array(readFileSync(new URL(name, DIR)));
      expect(() => decodeStrict(bytes)).not.toThrow();
      // Each fixture is not JSON.stringify output in any SPEC §4 indent.
      const value: unknown = JSON.parse(decodeStrict(bytes));
      for (const indent of [0, 2, 4, '\t']) {
        const pretty = JSON.stringify(value, null, indent);
        expect([pretty, `${pretty}\n`]).not.toContain(decodeStrict(bytes).replaceAll('\r\n', '\n'));
      }
    }
  });

  it.each(FIXTURES)(
    '%s: the entry (and a new stop or hooks member) has its neighbour’s indentation, form and spacing, its keys in SPEC order, and Remove restores the input where stop existed, or a layout rule broke',
    (name) => {
      const input = new Uint8Array(readFileSync(new URL(name, DIR)));
      fc.assert(
        fc.property(posixPathArb, posixPathArb, (executable, selector) => {
          checkInstall(name, input, executable, selector);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
