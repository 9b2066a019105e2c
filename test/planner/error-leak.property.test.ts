import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  errorIs,
  type HookSpec,
  Operation,
  type PlanRequest,
  plan,
  verifyOwned,
} from '../../src/index.js';
import { fcRuns, thrownBy, utf8 } from '../support/common.js';
import {
  entryOf,
  installReq,
  ownerRequests,
  posixCommand,
  receiptOf,
  removeReq,
  req,
  SPEC,
  updateReq,
  WRITE,
} from './support.js';

/** Every string reachable from an error: own properties (any key) along the cause chain. */
function errorStrings(error: unknown): string[] {
  const out: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 40 && typeof current === 'object' && current !== null; depth++) {
    out.push(String(current));
    for (const key of Reflect.ownKeys(current)) {
      out.push(String(key));
      const value: unknown = Reflect.get(current, key);
      if (typeof value === 'string') out.push(value);
      else if (typeof value !== 'object' || value === null) out.push(String(value));
    }
    current = Reflect.get(current, 'cause');
  }
  return out;
}

/** The marker as decoded text and as its JSON escape, since either would be a leak. */
function spellings(marker: string): string[] {
  return [marker, JSON.stringify(marker).slice(1, -1)];
}

function expectNoLeak(error: unknown, markers: readonly string[], label: string): void {
  expect(errorIs(error, ConflictError), `${label}: a ConflictError refusal`).toBe(true);
  const strings = errorStrings(error);
  for (const marker of markers.flatMap(spellings)) {
    for (const s of strings) {
      if (s.includes(marker)) {
        expect.fail(`${label}: error property leaks marker ${JSON.stringify(marker)}`);
      }
    }
  }
}

// Markers: any UTF-16 (lone surrogates included) for documents and ids; a path-safe alphabet,
// apostrophes and spaces included, where the spec must still render.
const anyMarker = fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).map((s) => `MARK${s}`);
const pathMarker = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019 \'"._-\u00e9\u4e2d'), minLength: 1, maxLength: 10 })
  .map((s) => `MARK${s}`);

interface Markers {
  readonly key: string;
  readonly value: string;
  readonly command: string;
  readonly path: string;
  readonly wild: string;
}

const markers: fc.Arbitrary<Markers> = fc.record({
  key: anyMarker,
  value: anyMarker,
  command: anyMarker,
  path: pathMarker,
  wild: anyMarker,
});

function markedSpec(m: Markers): HookSpec {
  return { executable: `/opt/${m.path}/agent`, selector: `/home/${m.path}/binding.json` };
}

/** A valid document holding the markers in a key, a value and a foreign command. */
function markedDoc(m: Markers, stop: readonly unknown[] = []): Record<string, unknown> {
  return {
    version: 1,
    [m.key]: m.value,
    hooks: { afterFileEdit: [{ command: m.command, [m.key]: [m.value] }], stop },
  };
}

const enc = (value: unknown) => utf8(JSON.stringify(value));

/** Requests that must each be refused; the scenario decides which refusal. */
type Scenario = (m: Markers) => readonly (readonly [string, PlanRequest | (() => unknown)])[];

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  'command-exists': (m) => {
    const spec = markedSpec(m);
    const doc = markedDoc(m, [{ command: posixCommand(spec), [m.key]: m.value }]);
    return [['install', req(Operation.Install, enc(doc), { ...WRITE, specs: [spec] })]];
  },
  'json-syntax': (m) => [
    [
      'install',
      installReq(utf8(`{"version":1,${JSON.stringify(m.key)}:${JSON.stringify(m.value)},}`)),
    ],
  ],
  'version-unsupported': (m) => [
    [
      'install',
      installReq(utf8(`{"version":${JSON.stringify(m.value)},${JSON.stringify(m.key)}:1}`)),
    ],
  ],
  'json-duplicate-key': (m) => [
    [
      'install',
      installReq(utf8(`{"version":1,${JSON.stringify(m.key)}:1,${JSON.stringify(m.key)}:2}`)),
    ],
  ],
  'owner-modified': (m) => {
    const spec = markedSpec(m);
    const install = plan(req(Operation.Install, enc(markedDoc(m)), { ...WRITE, specs: [spec] }));
    const receipt = receiptOf(install);
    const modified = markedDoc(m, [{ ...entryOf(posixCommand(spec)), [m.key]: m.value }]);
    return [
      ...ownerRequests(enc(modified), receipt),
      ['verifyOwned', () => verifyOwned(enc(modified), receipt)],
    ];
  },
  'owner-absent and remainder-drift': (m) => {
    const spec = markedSpec(m);
    const install = plan(req(Operation.Install, enc(markedDoc(m)), { ...WRITE, specs: [spec] }));
    const receipt = receiptOf(install);
    const removed = plan(removeReq(install.desired, receipt)).desired;
    const drifted = utf8(
      new TextDecoder().decode(removed).replace('{', `{${JSON.stringify(m.wild)}:0,`),
    );
    return [
      ...ownerRequests(drifted, receipt),
      ['verifyOwned', () => verifyOwned(drifted, receipt)],
    ];
  },
  'owner-duplicated and collision': (m) => {
    const spec = markedSpec(m);
    const install = plan(req(Operation.Install, enc(markedDoc(m)), { ...WRITE, specs: [spec] }));
    const receipt = receiptOf(install);
    const duplicated = markedDoc(m, [entryOf(posixCommand(spec)), entryOf(posixCommand(spec))]);
    const colliding = markedDoc(m, [entryOf(posixCommand(spec)), { command: posixCommand(SPEC) }]);
    return [
      ...ownerRequests(enc(duplicated), receipt),
      ['collision', updateReq(enc(colliding), receipt, SPEC)],
    ];
  },
  'receipt refusals': (m) => {
    const spec = markedSpec(m);
    const install = plan(req(Operation.Install, enc(markedDoc(m)), { ...WRITE, specs: [spec] }));
    const json = receiptOf(install).toJSON();
    const mismatched = {
      ...json,
      spec: { ...json.spec, selector: `${json.spec.selector}-${m.path}` },
    };
    const extra = { ...json, [m.key]: m.value };
    const shell = { ...json, shell: m.wild };
    return [
      ...ownerRequests(install.desired, mismatched),
      ...ownerRequests(install.desired, extra),
      ...ownerRequests(install.desired, shell),
      ['verifyOwned', () => verifyOwned(install.desired, mismatched)],
    ];
  },
  'spec, shell and operation refusals': (m) => [
    [
      'relative',
      req(Operation.Install, undefined, {
        ...WRITE,
        specs: [{ executable: m.wild, selector: m.path }],
      }),
    ],
    [
      'wild path',
      req(Operation.Install, undefined, {
        ...WRITE,
        specs: [{ executable: `/${m.wild}$`, selector: `/${m.wild}` }],
      }),
    ],
    [
      'spec keys',
      req(Operation.Install, undefined, { ...WRITE, specs: [{ ...SPEC, [m.key]: m.value }] }),
    ],
    ['shell', req(Operation.Install, undefined, { ...WRITE, shell: m.wild })],
    ['operation', req(m.wild, enc(markedDoc(m)), WRITE)],
  ],
};

describe('Errors never leak input', () => {
  it('keeps markers planted in keys, values, foreign commands, spec paths, receipts and ids out of every refusal error and its cause chain, or a message, reason, name or property echoes input', () => {
    fc.assert(
      fc.property(markers, fc.constantFrom(...Object.keys(SCENARIOS)), (m, scenario) => {
        const build = SCENARIOS[scenario];
        if (build === undefined) throw new Error(`no scenario ${scenario}`);
        const planted = [m.key, m.value, m.command, m.path, m.wild];
        for (const [name, action] of build(m)) {
          const label = `${scenario}/${name}`;
          if (typeof action === 'function') {
            const error = thrownBy(action);
            expect(error, `${label}: must throw`).toBeDefined();
            expectNoLeak(error, planted, label);
          } else {
            const result = plan(action);
            expect(result.conflict, `${label}: must be refused`).toBe(true);
            expect(result.receipt, label).toBeUndefined();
            expectNoLeak(result.error, planted, label);
          }
        }
      }),
      { numRuns: fcRuns(80) },
    );
  });
});
