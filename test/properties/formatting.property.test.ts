// SPEC §4 formatting property: a document that is exactly JSON.stringify(v, null, indent) (with
// optional final newline and CRLF line ends) stays exactly JSON.stringify of the edited value
// through the whole lifecycle Install → Update → Remove → Repair.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LinuxUserShell32212,
  Operation,
  type PlanResult,
  plan,
  type Receipt,
  verifyOwned,
} from '../../src/index.js';
import { decodeStrict, fcRuns, utf8 } from '../support/common.js';
import { bytesEqual, ownedEntry, posixPathArb, show } from './support.js';

const RUNS = fcRuns(150);
const SHELL = LinuxUserShell32212;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Indent = undefined | 0 | 2 | 4 | '\t';

// ---------------------------------------------------------------------------------------------
// Generators

// Characters JSON.stringify escapes (quote, backslash, C0 controls, lone surrogates) and
// characters it writes literally although they look special (U+2028, DEL, `/`, non-ASCII).
const SPECIAL_CHARS = [
  '"',
  '\\',
  '/',
  '\u0000',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\ufffd',
  'é',
  'e\u0301',
  '中',
  '😀',
];

const charArb = fc.oneof(
  fc.constantFrom(...SPECIAL_CHARS),
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);

const stringArb = fc.array(charArb, { maxLength: 8 }).map((chars) => chars.join(''));

// Keys that are special to JavaScript objects or to this library, or reordered by JSON.stringify.
const keyArb = fc.oneof(
  stringArb,
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    'toString',
    'command',
    'stop',
    'type',
    '0',
    '1',
    '42',
    'Version',
    'versión',
  ),
);

const numberArb = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER + 2),
);

const scalarArb = fc.oneof(fc.constant(null), fc.boolean(), numberArb, stringArb);

function objectOf(entries: readonly (readonly [string, Json])[]): JsonObject {
  // Object.fromEntries defines own data properties, so a `__proto__` key stays a plain member.
  return Object.fromEntries(entries);
}

const { value: jsonArb } = fc.letrec<{ value: Json; array: Json[]; object: JsonObject }>((tie) => ({
  value: fc.oneof({ maxDepth: 3, depthIdentifier: 'json' }, scalarArb, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'json' }),
  object: fc
    .uniqueArray(fc.tuple(keyArb, tie('value')), {
      selector: ([key]) => key,
      maxLength: 4,
      depthIdentifier: 'json',
    })
    .map(objectOf),
}));

/** Members of the event arrays: opaque values, often entry-shaped objects. */
const entryArb = fc.oneof(
  jsonArb,
  fc.record({ command: stringArb, timeout: numberArb }),
  fc.record({ type: fc.constant('command'), command: stringArb, matcher: jsonArb }),
);

const eventArrayArb = fc.array(entryArb, { maxLength: 3 });

type StopShape = 'absent' | 'empty' | 'filled';

/** `v`: version 1, foreign root members, optionally `hooks` with random events and `stop`. */
const documentArb = fc
  .record({
    foreign: fc.uniqueArray(fc.tuple(keyArb, jsonArb), {
      selector: ([key]) => key,
      maxLength: 4,
    }),
    versionAt: fc.nat(),
    hooks: fc.option(
      fc.record({
        events: fc.uniqueArray(fc.tuple(keyArb, eventArrayArb), {
          selector: ([key]) => key,
          maxLength: 3,
        }),
        stop: fc.constantFrom<StopShape>('absent', 'empty', 'filled'),
        stopEntries: fc.array(entryArb, { minLength: 1, maxLength: 3 }),
        stopAt: fc.nat(),
      }),
      { nil: undefined },
    ),
    hooksAt: fc.nat(),
  })
  .map(({ foreign, versionAt, hooks, hooksAt }): JsonObject => {
    const root: [string, Json][] = foreign.filter(([key]) => key !== 'version' && key !== 'hooks');
    insertAt(root, versionAt, ['version', 1]);
    if (hooks !== undefined) {
      const events: [string, Json][] = hooks.events.filter(([key]) => key !== 'stop');
      if (hooks.stop !== 'absent') {
        insertAt(events, hooks.stopAt, ['stop', hooks.stop === 'empty' ? [] : hooks.stopEntries]);
      }
      insertAt(root, hooksAt, ['hooks', objectOf(events)]);
    }
    return objectOf(root);
  });

function insertAt<T>(items: T[], at: number, item: T): void {
  items.splice(at % (items.length + 1), 0, item);
}

const layoutArb = fc.record({
  indent: fc.constantFrom<Indent>(undefined, 0, 2, 4, '\t'),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

type Layout = typeof layoutArb extends fc.Arbitrary<infer L> ? L : never;

// ---------------------------------------------------------------------------------------------
// Expected values

/** Exactly what SPEC §4 says the document is: JSON.stringify, then newline, then CRLF. */
function stringify(value: Json, { indent, crlf, finalNewline }: Layout): string {
  let text = indent === undefined ? JSON.stringify(value) : JSON.stringify(value, null, indent);
  if (finalNewline) text += '\n';
  return crlf ? text.replaceAll('\n', '\r\n') : text;
}

function clone(value: JsonObject): JsonObject {
  // JSON.parse also defines own data properties, so `__proto__` members survive the copy.
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** `v` with `hooks` and `stop` created last where missing; returns the copy and its stop array. */
function withStop(v: JsonObject): { doc: JsonObject; stop: Json[] } {
  const doc = clone(v);
  if (doc.hooks === undefined) doc.hooks = {};
  const hooks = doc.hooks as JsonObject;
  if (hooks.stop === undefined) hooks.stop = [];
  return { doc, stop: hooks.stop as Json[] };
}

function containsString(value: Json, wanted: string): boolean {
  if (typeof value === 'string') return value === wanted;
  if (Array.isArray(value)) return value.some((item) => containsString(item, wanted));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(
      ([key, item]) => key === wanted || containsString(item, wanted),
    );
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Checks

function expectChanged(result: PlanResult, expected: string, step: string): Receipt {
  expect(result.error, `${step} refused`).toBeUndefined();
  expect(result.conflict).toBe(false);
  const actual = decodeStrict(result.desired);
  if (actual !== expected) {
    throw new Error(
      `${step}: output is not JSON.stringify of the edited value\n` +
        `expected ${JSON.stringify(expected)}\nactual   ${JSON.stringify(actual)}`,
    );
  }
  expect(result.noOp).toBe(false);
  if (result.receipt !== undefined) verifyOwned(result.desired, result.receipt);
  return result.receipt as Receipt;
}

describe('SPEC §4: edits follow the formatting of a JSON.stringify document', () => {
  it(
    'red if Install, Update, Remove or Repair output differs from JSON.stringify of the ' +
      'edited value with the same indent, line ends and final newline',
    () => {
      fc.assert(
        fc.property(
          documentArb,
          layoutArb,
          posixPathArb,
          posixPathArb,
          posixPathArb,
          (v, layout, executable, selector, newSelector) => {
            fc.pre(selector !== newSelector);
            const entry = ownedEntry(SHELL, executable, selector);
            const updated = ownedEntry(SHELL, executable, newSelector);
            fc.pre(!containsString(v, entry.command) && !containsString(v, updated.command));

            const input = utf8(stringify(v, layout));
            const original = Uint8Array.from(input);

            // Install (no receipt): the entry appended last in stop.
            const { doc: v2, stop: stop2 } = withStop(v);
            stop2.push(entry);
            const installed = plan({
              document: input,
              operation: Operation.Install,
              specs: [{ executable, selector }],
              shell: SHELL,
              executableVerified: true,
            });
            const installReceipt = expectChanged(installed, stringify(v2, layout), 'install');
            expect(bytesEqual(input, original), 'install wrote to its input').toBe(true);

            // Update (new selector): the entry replaced in place.
            const { doc: v3, stop: stop3 } = withStop(v);
            stop3.push(updated);
            const updatedResult = plan({
              document: installed.desired,
              operation: Operation.Update,
              specs: [{ executable, selector: newSelector }],
              previous: installReceipt,
              shell: SHELL,
              executableVerified: true,
            });
            const updateReceipt = expectChanged(updatedResult, stringify(v3, layout), 'update');

            // Remove: the entry gone, `stop` (maybe `[]`) and `hooks` (maybe `{}`) kept.
            const { doc: v4 } = withStop(v);
            const removed = plan({
              document: updatedResult.desired,
              operation: Operation.Remove,
              previous: updateReceipt.toJSON(),
            });
            expectChanged(removed, stringify(v4, layout), 'remove');
            expect(removed.receipt).toBeUndefined();

            // Repair from the removed document: the remainder is unchanged, so the entry is
            // appended back last in stop, which is exactly the Update output again.
            const repaired = plan({
              document: removed.desired,
              operation: Operation.Repair,
              previous: updateReceipt,
              executableVerified: true,
            });
            expectChanged(repaired, stringify(v3, layout), 'repair');
            if (!bytesEqual(repaired.desired, updatedResult.desired)) {
              throw new Error(`repair did not restore ${show(updatedResult.desired)}`);
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
  );

  it('red if Install on an absent file is not JSON.stringify({version:1,hooks:{stop:[entry]}}, null, 2) + "\\n"', () => {
    fc.assert(
      fc.property(
        posixPathArb,
        posixPathArb,
        fc.constantFrom(undefined, null, new Uint8Array(0)),
        (executable, selector, absent) => {
          const entry = ownedEntry(SHELL, executable, selector);
          const expected = `${JSON.stringify({ version: 1, hooks: { stop: [entry] } }, null, 2)}\n`;
          const result = plan({
            ...(absent === undefined ? {} : { document: absent }),
            operation: Operation.Install,
            specs: [{ executable, selector }],
            shell: SHELL,
            executableVerified: true,
          });
          expectChanged(result, expected, 'install on an absent file');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('red if the generated documents are not accepted as they are (the property would be vacuous)', () => {
    // A sanity anchor with every awkward feature at once, checked by hand-written expectations.
    const v: JsonObject = objectOf([
      ['1', 'moved first by JSON.stringify'],
      ['__proto__', { '': [-0, 1e21, '\ud800\u2028"\\\u0000'] }],
      ['version', 1],
      ['hooks', objectOf([['stop', []]])],
    ]);
    const executable = '/opt/o\'brien/bin/hook "x"';
    const selector = '/sel/中\u0001';
    const entry = ownedEntry(SHELL, executable, selector);
    for (const indent of [undefined, 0, 2, 4, '\t'] as const) {
      for (const crlf of [false, true]) {
        const layout = { indent, crlf, finalNewline: true };
        const { doc: v2, stop } = withStop(v);
        stop.push(entry);
        const result = plan({
          document: utf8(stringify(v, layout)),
          operation: Operation.Install,
          specs: [{ executable, selector }],
          shell: SHELL,
          executableVerified: true,
        });
        expectChanged(result, stringify(v2, layout), `install (indent ${String(indent)})`);
      }
    }
  });
});
