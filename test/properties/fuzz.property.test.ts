// Hostile-input fuzzing as property tests: byte-mutated documents, random operations, specs,
// shells and receipts go through the public `plan`, which must never throw, must hand back the
// input bytes on refusal, and on success must write re-parseable JSON with a verifying receipt
// whose repeat is a no-op. Shapes that would be quadratic if done naively are checked
// deterministically for the right answer (their speed is the benchmarks' business).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AbsenceUnprovenError,
  ConflictError,
  CursorHooksError,
  DarwinUserShell20260918,
  errorIs,
  type HookSpec,
  LinuxUserShell32212,
  MAX_DOCUMENT_BYTES,
  Operation,
  type PlanRequest,
  type PlanResult,
  plan,
  Receipt,
  type ReceiptJSON,
  UnsupportedError,
  verifyOwned,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from '../../src/index.js';
import {
  ABSENCE_REASONS,
  bytesOf,
  decodeStrict,
  fcRuns,
  UNSUPPORTED_REASONS,
  utf8,
} from '../support/common.js';
import { bytesEqual, ownedEntry, posixPathArb, show } from './support.js';

const RUNS = fcRuns(400);

// ---------------------------------------------------------------------------------------------
// Specs and shells

interface ShellSpec {
  readonly spec: HookSpec;
  readonly shell: string;
}

const VALID_SPECS: readonly ShellSpec[] = [
  {
    spec: {
      executable: '/usr/local/bin/cursorhooks',
      selector: '/home/dev/.config/cursorhooks/binding.json',
    },
    shell: LinuxUserShell32212,
  },
  {
    spec: {
      executable: "/Users/o'brien/Library/Application Support/hooks/bin/hook",
      selector: "/Users/o'brien/sel 1",
    },
    shell: DarwinUserShell20260918,
  },
  {
    spec: {
      executable: 'C:\\Program Files\\Cursor Hooks\\hook.exe',
      selector: "C:\\Users\\o'dev\\AppData\\binding.json",
    },
    shell: WindowsPowerShellStop20261001,
  },
  {
    spec: { executable: '/opt/中文/bin/hook "x"', selector: '/tmp/back\\slash/\u2028é' },
    shell: LinuxUserShell32212,
  },
];

// Paths that some or all contracts refuse, next to a few they accept.
const PATHS = [
  '/usr/local/bin/cursorhooks',
  '/usr/local/bin/other',
  'C:\\Tools\\hook.exe',
  'C:\\Tools\\binding',
  'relative/path',
  'ZQXJ-relative-marker',
  '/ZQXJ/$marker',
  'C:\\ZQXJ\\CON.exe',
  '',
  '/',
  '//',
  '///x',
  '/a/../b',
  '/a/./b',
  '/a/',
  '/a//b',
  '/a$HOME',
  '/a`id`',
  '/a\nb',
  '/a\rb',
  '/a\u0000b',
  '/x\ud800',
  '/x\udc00y',
  `/${'x'.repeat(5000)}`,
  'C:\\CON\\x.exe',
  'C:\\dir\\nul.txt.exe',
  'C:\\a\\b.',
  'C:\\a\\b \\c.exe',
  'C:/a/b.exe',
  'C:\\a\u2019b.exe',
  'C:\\a:b.exe',
  '\\\\server\\share\\h.exe',
  '\\\\?\\C:\\h.exe',
  'C:\\',
  'C:\\hook.EXE',
];

const SHELLS: readonly unknown[] = [
  LinuxUserShell32212,
  DarwinUserShell20260918,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
  '',
  '__proto__',
  'constructor',
  'cursor-linux-user',
  LinuxUserShell32212.toUpperCase(),
  42,
  null,
  undefined,
  {},
];

// ---------------------------------------------------------------------------------------------
// Seed documents: fixtures/documents/*.json when present, always our own realistic ones too.

const OWN_SEEDS: readonly (readonly [string, string])[] = [
  ['minimal', '{"version":1}'],
  [
    'cursor-docs-example',
    `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      { "command": "./hooks/ZQXJ-audit.sh" }
    ],
    "afterFileEdit": [
      { "command": "./hooks/format.sh", "timeout": 30 }
    ],
    "stop": [
      { "command": "./hooks/audio.sh", "loop_limit": 3 }
    ]
  }
}
`,
  ],
  [
    'crlf-tabs-unicode-version-last',
    '{\r\n\t"hooks": {\r\n\t\t"stop": [],\r\n\t\t"beforeSubmitPrompt": [\r\n\t\t\t{"command": ' +
      '"/usr/bin/env node \\u4e2d.js", "matcher": "caf\u00e9 cafe\u0301"}\r\n\t\t]\r\n\t},\r\n' +
      '\t"version": 1.0,\r\n\t"future": []\r\n}\r\n',
  ],
  [
    'lexemes-and-escapes',
    '{"version":10e-1,"big":90071992547409931234567890,"huge":1e400,"negzero":-0,' +
      '"esc":"\\ud800\\/\\u0000\\"\\\\","\\u0076ersion2":true,"hooks":{}}',
  ],
  [
    'lookalike-entries',
    JSON.stringify(
      {
        version: 1,
        hooks: {
          stop: [
            {
              command:
                "'/usr/local/bin/cursorhooks' 'cursor-event' 'stop' '--binding' '/elsewhere'",
            },
            { command: 5 },
            'stop',
            ['command'],
            null,
            { type: 'command', command: "'/usr/local/bin/cursorhooks'", timeout: 5 },
          ],
          afterAgentResponse: [{ command: './x', failClosed: true }],
        },
      },
      null,
      4,
    ),
  ],
  [
    'deep-foreign-value',
    `{"version":1,"deep":${'['.repeat(60)}1${']'.repeat(60)},"hooks":{"stop":[{"a":${'{"b":'.repeat(
      5,
    )}0${'}'.repeat(5)}}]}}`,
  ],
  [
    'many-events-two-space',
    `${JSON.stringify(
      {
        $schema: 'https://example.invalid/ZQXJ/hooks.schema.json',
        version: 1,
        hooks: Object.fromEntries(
          ['beforeMCPExecution', 'beforeReadFile', 'afterShellExecution', 'subagentStop'].map(
            (event, i) => [event, [{ command: `./hooks/${event}.sh`, timeout: i }]],
          ),
        ),
        extra: { nested: [1, 2.5e-3, true, null, 'Grüße 😀'] },
      },
      null,
      2,
    )}\n`,
  ],
];

interface Seed {
  readonly name: string;
  readonly bytes: Uint8Array;
}

const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/documents/', import.meta.url));
/** Fixtures larger than this are checked as they are, not mutated hundreds of times. */
const MUTABLE_FIXTURE_BYTES = 64 * 1024;

function fixtureSeeds(): Seed[] {
  let names: string[];
  try {
    names = readdirSync(FIXTURE_DIR)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return []; // the folder does not exist (yet): our own seeds still run
  }
  return names.map((name) => ({
    name: `fixture:${name}`,
    bytes: new Uint8Array(readFileSync(join(FIXTURE_DIR, name))),
  }));
}

const FIXTURES = fixtureSeeds();
const SEEDS: readonly Seed[] = [
  { name: 'absent', bytes: new Uint8Array(0) },
  ...OWN_SEEDS.map(([name, text]) => ({ name, bytes: utf8(text) })),
  ...FIXTURES.filter((seed) => seed.bytes.length <= MUTABLE_FIXTURE_BYTES),
];

/** A starting document, and for installed ones the receipt that owns its entry. */
interface Base extends Seed {
  readonly receipt?: Receipt;
}

function install(bytes: Uint8Array, { spec, shell }: ShellSpec): PlanResult {
  return plan({
    document: bytes,
    operation: Operation.Install,
    specs: [spec],
    shell,
    executableVerified: true,
  });
}

/** Every seed, then every seed with each valid spec installed (where Install succeeds). */
const BASES: readonly Base[] = [
  ...SEEDS,
  ...SEEDS.flatMap((seed) =>
    VALID_SPECS.flatMap((shellSpec, i): Base[] => {
      const result = install(seed.bytes, shellSpec);
      return result.receipt === undefined
        ? []
        : [{ name: `${seed.name}+installed#${i}`, bytes: result.desired, receipt: result.receipt }];
    }),
  ),
];

const INSTALLED: readonly Base[] = BASES.filter((base) => base.receipt !== undefined);
const RECEIPTS: readonly Receipt[] = INSTALLED.flatMap((base) => base.receipt ?? []);

// ---------------------------------------------------------------------------------------------
// Byte mutations

const FRAGMENTS: readonly (string | readonly number[])[] = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  '\\u',
  '\\ud800',
  ',',
  ':',
  '1e999',
  '-0',
  '01',
  '1.',
  '-',
  'null',
  'true',
  '/*x*/',
  ' ',
  '\t',
  '\r\n',
  '\u00a0',
  '"version":1,',
  '"version":2,',
  '"ZQXJ":"ZQXJ",',
  '"hooks":{},',
  '"stop":[],',
  '"stop":{},',
  '{"command":"x"},',
  [0xef, 0xbb, 0xbf], // BOM
  [0xff],
  [0xc0, 0xaf], // overlong '/'
  [0xed, 0xa0, 0x80], // surrogate code point
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xe4, 0xb8], // truncated
  [0x80],
  [0x00],
];

type Mutation =
  | { readonly kind: 'insert'; readonly at: number; readonly byte: number }
  | { readonly kind: 'delete'; readonly at: number; readonly count: number }
  | { readonly kind: 'overwrite'; readonly at: number; readonly byte: number }
  | {
      readonly kind: 'splice';
      readonly at: number;
      readonly remove: number;
      readonly fragment: number;
    }
  | { readonly kind: 'copy'; readonly from: number; readonly length: number; readonly at: number };

const byteArb = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(...[...'{}[]",:\\ 0159e-.tfn'].map((c) => c.charCodeAt(0))),
);

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: byteArb }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.nat(),
    count: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ kind: fc.constant('overwrite' as const), at: fc.nat(), byte: byteArb }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    remove: fc.integer({ min: 0, max: 3 }),
    fragment: fc.nat({ max: FRAGMENTS.length - 1 }),
  }),
  // Duplicates a slice elsewhere: repeated keys, duplicated entries, moved owned commands.
  fc.record({
    kind: fc.constant('copy' as const),
    from: fc.nat(),
    length: fc.integer({ min: 1, max: 200 }),
    at: fc.nat(),
  }),
);

/** Mostly harmless: JSON whitespace at a random offset (breaks only tokens it lands in). */
const whitespaceArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constant('insert' as const),
  at: fc.nat(),
  byte: fc.constantFrom(0x20, 0x0a, 0x0d, 0x09),
});

function fragmentBytes(index: number): Uint8Array {
  const fragment = FRAGMENTS[index] ?? '';
  return typeof fragment === 'string' ? utf8(fragment) : Uint8Array.from(fragment);
}

function mutate(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const length = bytes.length;
  const at = (n: number, size: number) => (size === 0 ? 0 : n % size);
  switch (mutation.kind) {
    case 'insert': {
      const i = at(mutation.at, length + 1);
      return bytesOf(bytes.subarray(0, i), [mutation.byte], bytes.subarray(i));
    }
    case 'delete': {
      const i = at(mutation.at, length);
      return bytesOf(bytes.subarray(0, i), bytes.subarray(i + mutation.count));
    }
    case 'overwrite': {
      if (length === 0) return Uint8Array.from([mutation.byte]);
      const out = Uint8Array.from(bytes);
      out[at(mutation.at, length)] = mutation.byte;
      return out;
    }
    case 'splice': {
      const i = at(mutation.at, length + 1);
      const piece = fragmentBytes(mutation.fragment);
      return bytesOf(bytes.subarray(0, i), piece, bytes.subarray(i + mutation.remove));
    }
    case 'copy': {
      const from = at(mutation.from, length);
      const slice = bytes.slice(from, from + mutation.length);
      const i = at(mutation.at, length + 1);
      return bytesOf(bytes.subarray(0, i), slice, bytes.subarray(i));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Requests, generated as tagged data (readable counterexamples) and resolved against the base.

type SpecsChoice =
  | { readonly kind: 'own' }
  | { readonly kind: 'valid'; readonly index: number }
  | { readonly kind: 'paths'; readonly executable: string; readonly selector: string }
  | { readonly kind: 'garbage'; readonly index: number };

type PreviousChoice =
  | { readonly kind: 'own'; readonly asJson: boolean }
  | { readonly kind: 'omitted'; readonly asNull: boolean }
  | { readonly kind: 'foreign'; readonly index: number }
  | {
      readonly kind: 'tampered';
      readonly own: boolean;
      readonly index: number;
      readonly field: number;
    }
  | { readonly kind: 'garbage'; readonly index: number };

type DocumentForm = 'plain' | 'buffer' | 'view' | 'undefined-if-empty' | 'null-if-empty';

const pathArb = fc.oneof(fc.constantFrom(...PATHS), posixPathArb);

const specsArb: fc.Arbitrary<SpecsChoice> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'own' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('valid' as const),
      index: fc.nat({ max: VALID_SPECS.length - 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('paths' as const),
      executable: pathArb,
      selector: pathArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('garbage' as const), index: fc.nat() }),
  },
);

const previousArb: fc.Arbitrary<PreviousChoice> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('own' as const), asJson: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('omitted' as const), asNull: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('foreign' as const), index: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tampered' as const),
      own: fc.boolean(),
      index: fc.nat(),
      field: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), index: fc.nat() }) },
);

const operationArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom(
      Operation.Install,
      Operation.Update,
      Operation.Remove,
      Operation.Repair,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('INSTALL', 'delete', '', 'toString', 1, null, undefined),
  },
);

const scenarioArb = fc.record({
  // Installed bases are favoured so that Update, Remove and Repair often have an owner.
  installed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  base: fc.nat(),
  mutations: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Mutation[]>([]) },
    { weight: 1, arbitrary: fc.array(whitespaceArb, { minLength: 1, maxLength: 3 }) },
    { weight: 3, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 4 }) },
  ),
  form: fc.constantFrom<DocumentForm>(
    'plain',
    'plain',
    'buffer',
    'view',
    'undefined-if-empty',
    'null-if-empty',
  ),
  operation: operationArb,
  specs: specsArb,
  shell: fc.oneof(
    { weight: 4, arbitrary: fc.constant('match' as const) },
    { weight: 1, arbitrary: fc.constantFrom(...SHELLS) },
  ),
  previous: previousArb,
  executableVerified: fc.oneof(
    { weight: 8, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(false, undefined, 'true', 1, null) },
  ),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

function pick<T>(items: readonly T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Proxies whose every trap throws; only requests holding one may fail `unexpected-failure`. */
const HOSTILE_PROXIES = new WeakSet<object>();

function throwingProxy(): object {
  const fail = () => {
    throw new Error('hostile trap');
  };
  const proxy = new Proxy(
    {},
    { get: fail, ownKeys: fail, getOwnPropertyDescriptor: fail, has: fail },
  );
  HOSTILE_PROXIES.add(proxy);
  return proxy;
}

function holdsHostileProxy(request: Record<string, unknown>): boolean {
  return [request.specs, request.previous, request.shell].some(
    (field) =>
      (typeof field === 'object' && field !== null && HOSTILE_PROXIES.has(field)) ||
      (Array.isArray(field) &&
        field.some(
          (item: unknown) => typeof item === 'object' && item !== null && HOSTILE_PROXIES.has(item),
        )),
  );
}

function garbageSpecs(index: number): unknown {
  const options: unknown[] = [
    null,
    'specs',
    [],
    [null],
    [{ executable: '/a' }],
    [{ executable: '/a', selector: '/b', extra: 1 }],
    [{ executable: 1, selector: '/b' }],
    [VALID_SPECS[0]?.spec, VALID_SPECS[0]?.spec],
    { executable: '/a', selector: '/b' },
    [throwingProxy()],
    throwingProxy(),
    // biome-ignore lint/suspicious/noSparseArray: a hole is part of the hostile input
    [, VALID_SPECS[0]?.spec],
  ];
  return pick(options, index);
}

function garbageReceipt(index: number): unknown {
  const valid = pick(RECEIPTS, index).toJSON();
  const options: unknown[] = [
    {},
    [],
    'receipt',
    42,
    true,
    { version: 1 },
    { ...valid, extra: true },
    Object.assign(Object.create(null) as object, valid),
    { ...valid, spec: [valid.spec.executable, valid.spec.selector] },
    { ...valid, [Symbol('x')]: 1 },
    throwingProxy(),
    JSON.parse(JSON.stringify(valid)) as unknown,
  ];
  return pick(options, index);
}

/** A receipt with exactly one field changed (some changes keep it valid, most do not). */
function tamper(receipt: ReceiptJSON, field: number): unknown {
  const other = pick(RECEIPTS, field + 1).toJSON();
  const flip = (digest: string) => `${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`;
  const changes: (() => unknown)[] = [
    () => ({ ...receipt, version: 2 }),
    () => ({ ...receipt, version: '1' }),
    () => ({ ...receipt, event: 'Stop' }),
    () => ({ ...receipt, spec: { ...receipt.spec, executable: `${receipt.spec.executable}x` } }),
    () => ({ ...receipt, spec: { ...receipt.spec, selector: other.spec.selector } }),
    () => ({ ...receipt, spec: { executable: receipt.spec.executable } }),
    () => ({ ...receipt, spec: null }),
    () => ({ ...receipt, shell: other.shell }),
    () => ({ ...receipt, shell: WindowsUnqualified }),
    () => ({ ...receipt, entryDigest: flip(receipt.entryDigest) }),
    () => ({ ...receipt, entryDigest: receipt.entryDigest.toUpperCase() }),
    () => ({ ...receipt, entryDigest: receipt.entryDigest.slice('sha256:'.length) }),
    () => ({ ...receipt, entryDigest: other.entryDigest }),
    () => ({ ...receipt, remainderDigest: flip(receipt.remainderDigest) }),
    () => ({ ...receipt, remainderDigest: other.remainderDigest }),
    () => ({ ...receipt, remainderDigest: `${receipt.remainderDigest}0` }),
    () => {
      const { shell: _, ...rest } = receipt;
      return rest;
    },
  ];
  return pick(changes, field)();
}

interface Resolved {
  readonly input: Uint8Array;
  readonly request: Record<string, unknown>;
}

function resolve(scenario: Scenario): Resolved {
  const base = pick(scenario.installed ? INSTALLED : BASES, scenario.base);
  const bytes = scenario.mutations.reduce(mutate, base.bytes);
  const own = base.receipt;
  const ownSpec: ShellSpec =
    own === undefined ? pick(VALID_SPECS, scenario.base) : { spec: own.spec, shell: own.shell };

  let specs: unknown;
  let matchShell: unknown = ownSpec.shell;
  const choice = scenario.specs;
  switch (choice.kind) {
    case 'own':
      specs = [{ ...ownSpec.spec }];
      break;
    case 'valid': {
      const chosen = pick(VALID_SPECS, choice.index);
      specs = [{ ...chosen.spec }];
      matchShell = chosen.shell;
      break;
    }
    case 'paths':
      specs = [{ executable: choice.executable, selector: choice.selector }];
      matchShell = choice.executable.startsWith('/')
        ? LinuxUserShell32212
        : WindowsPowerShellStop20261001;
      break;
    case 'garbage':
      specs = garbageSpecs(choice.index);
      break;
  }

  let previous: unknown;
  const prev = scenario.previous;
  switch (prev.kind) {
    case 'own':
      previous = own === undefined ? undefined : prev.asJson ? own.toJSON() : own;
      break;
    case 'omitted':
      previous = prev.asNull ? null : undefined;
      break;
    case 'foreign':
      previous = pick(RECEIPTS, prev.index);
      break;
    case 'tampered':
      previous = tamper((prev.own && own ? own : pick(RECEIPTS, prev.index)).toJSON(), prev.field);
      break;
    case 'garbage':
      previous = garbageReceipt(prev.index);
      break;
  }

  const request: Record<string, unknown> = {
    operation: scenario.operation,
    shell: scenario.shell === 'match' ? matchShell : scenario.shell,
    executableVerified: scenario.executableVerified,
  };
  if (specs !== undefined) request.specs = specs;
  if (previous !== undefined) request.previous = previous;
  if (bytes.length === 0 && scenario.form === 'undefined-if-empty') {
    // document omitted entirely
  } else if (bytes.length === 0 && scenario.form === 'null-if-empty') {
    request.document = null;
  } else if (scenario.form === 'buffer') {
    request.document = Buffer.from(bytes);
  } else if (scenario.form === 'view') {
    // A view into a larger buffer with non-zero offset and junk around it.
    const backing = new Uint8Array(bytes.length + 16).fill(0x7b);
    backing.set(bytes, 7);
    request.document = backing.subarray(7, 7 + bytes.length);
  } else {
    request.document = Uint8Array.from(bytes);
  }
  return { input: bytes, request };
}

// ---------------------------------------------------------------------------------------------
// The checked properties

function describeRequest(request: Record<string, unknown>): string {
  const { document, ...rest } = request;
  let fields: string;
  try {
    fields = JSON.stringify(rest, (_key, value: unknown) =>
      value instanceof Receipt ? { receipt: value.toJSON() } : value,
    );
  } catch {
    fields = `${Object.keys(rest).join(',')} (a field is a hostile proxy)`;
  }
  return `document ${document instanceof Uint8Array ? show(document) : String(document)}; ${fields}`;
}

/** `plan` that records a throw as a failure with the request, instead of an opaque stack. */
function planNoThrow(request: Record<string, unknown>): PlanResult {
  try {
    return plan(request as unknown as PlanRequest);
  } catch (error) {
    throw new Error(`plan threw ${String(error)} for ${describeRequest(request)}`);
  }
}

function snapshot(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // proxies and the like: not snapshot-able, not plain host data
  }
}

/** Text planted in paths and documents; it must never surface in an error (SPEC §2). */
const MARKERS = ['ZQXJ', 'hostile trap'];

/** The error and its cause chain: kinds as SPEC §2 classifies them, and nothing echoed. */
function expectCleanError(error: CursorHooksError, context: string): void {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    parts.push(current.name, current.message, String((current as { reason?: unknown }).reason));
    parts.push(...Object.values(current).map((value) => String(value)));
    current = current.cause;
  }
  const text = parts.join('\n');
  for (const marker of MARKERS)
    expect(text.includes(marker), `${marker} leaked; ${context}`).toBe(false);
  const unsupported = errorIs(error, UnsupportedError);
  const absence = errorIs(error, AbsenceUnprovenError);
  expect(unsupported && absence, context).toBe(false);
  if (
    UNSUPPORTED_REASONS.has(error.reason) ||
    error.reason.startsWith('path-') ||
    error.reason.startsWith('argv-')
  ) {
    expect(unsupported, `${error.reason} is not Unsupported; ${context}`).toBe(true);
  }
  expect(absence, `${error.reason} absence kind; ${context}`).toBe(
    ABSENCE_REASONS.has(error.reason),
  );
}

function expectRefusal(result: PlanResult, input: Uint8Array, context: string): CursorHooksError {
  expect(result.conflict, context).toBe(true);
  expect(result.error, context).toBeInstanceOf(CursorHooksError);
  expect(errorIs(result.error, ConflictError), context).toBe(true);
  expect(result.receipt, context).toBeUndefined();
  if (!bytesEqual(result.desired, input)) {
    throw new Error(`refusal did not return the input bytes: ${show(result.desired)}; ${context}`);
  }
  const error = result.error as CursorHooksError;
  expectCleanError(error, context);
  return error;
}

function expectNoOpRepeat(first: PlanResult, repeat: PlanResult, context: string): void {
  expect(repeat.error, context).toBeUndefined();
  expect(repeat.noOp, context).toBe(true);
  expect(bytesEqual(repeat.desired, first.desired), context).toBe(true);
  expect(repeat.receipt?.toJSON(), context).toStrictEqual(first.receipt?.toJSON());
}

type Tally = Record<string, number>;

/**
 * Runs one request and checks every invariant; returns a label for the run's outcome.
 *
 * Repeat rules on success, all run on the output bytes with the same specs, shell and
 * attestation:
 * - Install without a receipt: the identical request is refused with `command-exists`.
 * - Install with a receipt, Update and Repair: the request with the returned receipt as
 *   `previous` is a byte no-op returning an equal receipt.
 * - Remove: the identical request is refused as AbsenceUnproven (`owner-absent`).
 */
function checkScenario({ input, request }: Resolved, tally?: Tally): void {
  const context = describeRequest(request);
  const document = request.document;
  const before = document instanceof Uint8Array ? Uint8Array.from(document) : undefined;
  // Our 'view' documents own their backing buffer; a Buffer may share Node's pool with others.
  const viewBacking =
    document instanceof Uint8Array && !Buffer.isBuffer(document)
      ? Uint8Array.from(new Uint8Array(document.buffer))
      : undefined;
  const previousBefore = snapshot(request.previous);
  const specsBefore = snapshot(request.specs);

  const result = planNoThrow(request);

  // The input is never written to: neither the view nor the memory around it.
  if (document instanceof Uint8Array && before !== undefined) {
    expect(bytesEqual(document, before), `input mutated; ${context}`).toBe(true);
  }
  if (document instanceof Uint8Array && viewBacking !== undefined) {
    const after = new Uint8Array(document.buffer);
    expect(bytesEqual(after, viewBacking), `memory around input written; ${context}`).toBe(true);
  }
  expect(snapshot(request.previous)).toBe(previousBefore);
  expect(snapshot(request.specs)).toBe(specsBefore);
  expect(result.conflict, context).toBe(result.error !== undefined);

  const operation = request.operation;
  if (result.conflict) {
    const error = expectRefusal(result, input, context);
    // A bug inside the planner surfaces as `unexpected-failure`; only hostile proxies may cause it.
    if (error.reason === 'unexpected-failure') {
      expect(holdsHostileProxy(request), `unexpected failure; ${context}`).toBe(true);
    }
    if (tally) tally[`refused:${error.reason}`] = (tally[`refused:${error.reason}`] ?? 0) + 1;
    return;
  }
  if (tally) tally[`ok:${String(operation)}`] = (tally[`ok:${String(operation)}`] ?? 0) + 1;

  // A success was planned on a valid document (or an absent file) ...
  if (input.length > 0) JSON.parse(decodeStrict(input));
  // ... and writes strict UTF-8 JSON (a BOM would make JSON.parse throw here).
  try {
    JSON.parse(decodeStrict(result.desired));
  } catch (error) {
    throw new Error(`desired does not re-parse (${String(error)}): ${show(result.desired)}`);
  }
  expect(result.desired).not.toBe(document); // results own fresh bytes
  expect(result.noOp, context).toBe(bytesEqual(result.desired, input));

  if (operation === Operation.Remove) {
    expect(result.receipt, context).toBeUndefined();
    const repeat = planNoThrow({ ...request, document: result.desired });
    const error = expectRefusal(repeat, result.desired, `repeat remove; ${context}`);
    expect(errorIs(error, AbsenceUnprovenError), context).toBe(true);
    expect(error.reason).toBe('owner-absent');
    return;
  }

  const receipt = result.receipt;
  expect(receipt, context).toBeInstanceOf(Receipt);
  if (!(receipt instanceof Receipt)) return;
  verifyOwned(result.desired, receipt);
  verifyOwned(result.desired, receipt.toJSON());
  if (operation === Operation.Install || operation === Operation.Update) {
    // The receipt names the request's spec and shell.
    const [spec] = request.specs as readonly HookSpec[];
    expect(receipt.spec).toStrictEqual({ executable: spec?.executable, selector: spec?.selector });
    expect(receipt.shell).toBe(request.shell);
  }

  const unreceiptedInstall =
    operation === Operation.Install &&
    (request.previous === undefined || request.previous === null);
  if (unreceiptedInstall) {
    const repeat = planNoThrow({ ...request, document: result.desired });
    const error = expectRefusal(repeat, result.desired, `repeat install; ${context}`);
    expect(error.reason, context).toBe('command-exists');
    return;
  }
  const repeat = planNoThrow({ ...request, document: result.desired, previous: receipt });
  expectNoOpRepeat(result, repeat, `repeat ${String(operation)}; ${context}`);
}

describe('fuzz: plan on hostile documents, specs, shells and receipts', () => {
  it('red if the seed pool lost its installed documents (the fuzzing would never reach Update, Remove or Repair successes)', () => {
    expect(BASES.length).toBeGreaterThan(SEEDS.length);
    expect(RECEIPTS.length).toBeGreaterThanOrEqual(OWN_SEEDS.length * 2);
  });

  it(
    'red if plan throws, mutates its input, returns other bytes on refusal, writes unparseable ' +
      'JSON or an unverifiable receipt, or a repeated success is not a no-op (or the stated refusal)',
    () => {
      const tally: Tally = {};
      fc.assert(
        fc.property(scenarioArb, (scenario) => {
          checkScenario(resolve(scenario), tally);
        }),
        { numRuns: RUNS },
      );
      // Not vacuous: the successes of every operation were exercised.
      if (RUNS >= 400) {
        for (const operation of Object.values(Operation)) {
          expect(tally[`ok:${operation}`] ?? 0, JSON.stringify(tally)).toBeGreaterThan(0);
        }
      }
    },
  );

  it('red if any seed or fixture document, as it is or installed, breaks a plan invariant under any operation', () => {
    const check = (bytes: Uint8Array, operation: string, choice: ShellSpec, receipt?: Receipt) => {
      const request: Record<string, unknown> = {
        document: Uint8Array.from(bytes),
        operation,
        specs: [choice.spec],
        shell: choice.shell,
        executableVerified: true,
      };
      if (receipt !== undefined) request.previous = receipt;
      checkScenario({ input: bytes, request });
    };
    const large = FIXTURES.filter((fixture) => fixture.bytes.length > MUTABLE_FIXTURE_BYTES);
    for (const seed of [...SEEDS, ...large]) {
      for (const operation of Object.values(Operation)) {
        for (const choice of VALID_SPECS) check(seed.bytes, operation, choice);
      }
    }
    for (const base of BASES) {
      if (base.receipt === undefined) continue;
      const own = { spec: base.receipt.spec, shell: base.receipt.shell };
      const other = VALID_SPECS.find(
        (choice) => choice.shell === own.shell && choice.spec.selector !== own.spec.selector,
      );
      for (const operation of Object.values(Operation)) {
        check(base.bytes, operation, own, base.receipt);
        if (other !== undefined) check(base.bytes, operation, other, base.receipt);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile shapes: deterministic, checked for the right answer (never timed here).

const LINUX = VALID_SPECS[0] as ShellSpec;

function installRequest(document: Uint8Array): Record<string, unknown> {
  return {
    document,
    operation: Operation.Install,
    specs: [LINUX.spec],
    shell: LINUX.shell,
    executableVerified: true,
  };
}

function refusedWith(document: Uint8Array, reason: string, kind = UnsupportedError): PlanResult {
  const result = planNoThrow(installRequest(document));
  const error = expectRefusal(result, document, reason);
  expect(error.reason).toBe(reason);
  expect(errorIs(error, kind)).toBe(true);
  return result;
}

/** One Install that must succeed: re-parseable output, verifying receipt, input untouched. */
function installs(document: Uint8Array): PlanResult {
  const before = Uint8Array.from(document);
  const result = planNoThrow(installRequest(document));
  expect(result.error).toBeUndefined();
  expect(result.noOp).toBe(false);
  expect(bytesEqual(document, before)).toBe(true);
  JSON.parse(decodeStrict(result.desired));
  if (result.receipt === undefined) throw new Error('install returned no receipt');
  verifyOwned(result.desired, result.receipt);
  return result;
}

describe('hostile shapes that would be quadratic or recursive if handled naively', () => {
  it('red if 30,000 nested `[` (bare or under a member) overflow the stack or are not refused as too deep', () => {
    refusedWith(utf8('['.repeat(30_000)), 'document-too-deep');
    refusedWith(utf8(`${'['.repeat(30_000)}${']'.repeat(30_000)}`), 'document-too-deep');
    refusedWith(
      utf8(`{"version":1,"a":${'['.repeat(30_000)}${']'.repeat(30_000)}}`),
      'document-too-deep',
    );
    refusedWith(
      utf8(`{"version":1,"a":${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}}`),
      'document-too-deep',
    );
  });

  it('red if exactly 4 MiB of `[` is not refused as too deep, or 4 MiB + 1 byte is not refused as too large with the very same array', () => {
    refusedWith(new Uint8Array(MAX_DOCUMENT_BYTES).fill(0x5b), 'document-too-deep');
    const oversized = new Uint8Array(MAX_DOCUMENT_BYTES + 1).fill(0x5b);
    const result = refusedWith(oversized, 'document-too-large');
    expect(result.desired).toBe(oversized);
  });

  it('red if the depth limit is off by one: 64 levels with room for the entry install, 65 are refused', () => {
    // Root at depth 1; `hooks` → `stop` → entry reach depth 4, below the foreign nesting.
    installs(utf8(`{"version":1,"a":${'['.repeat(63)}${']'.repeat(63)}}`));
    refusedWith(utf8(`{"version":1,"a":${'['.repeat(64)}${']'.repeat(64)}}`), 'document-too-deep');
    // 62 levels of stop entry nesting around a container the entry lands beside.
    const deepStop = `{"version":1,"hooks":{"stop":[${'['.repeat(61)}${']'.repeat(61)}]}}`;
    installs(utf8(deepStop));
  });

  it('red if 65,537 tiny scalars are not refused for nodes, or the 65,536-node boundary is off by one for input or output', () => {
    // Nodes: root, "version", 1, "a", the array, then n scalars.
    const scalars = (n: number) => utf8(`{"version":1,"a":[${new Array(n).fill('0').join(',')}]}`);
    refusedWith(scalars(65_537), 'document-too-many-nodes');
    refusedWith(scalars(65_536 - 5 + 1), 'document-too-many-nodes');
    // Exactly 65,536 nodes loads, but the install would add 13 nodes.
    refusedWith(scalars(65_536 - 5), 'output-too-many-nodes');
    // Install adds "hooks", {}, "stop", [], the entry {}, 4 keys and 4 values: 13 nodes.
    installs(scalars(65_536 - 5 - 13));
    refusedWith(scalars(65_536 - 5 - 12), 'output-too-many-nodes');
  });

  it('red if 30,000 near-duplicate keys are mis-judged: all distinct installs, one escaped repeat is refused', () => {
    const keys = Array.from({ length: 30_000 }, (_, i) => `"k${i}":0`);
    installs(utf8(`{"version":1,${keys.join(',')}}`));
    // `"\u006b0"` decodes to the same key as `"k0"`.
    refusedWith(utf8(`{"version":1,${keys.join(',')},"\\u006b0":1}`), 'json-duplicate-key');
    // Long shared prefixes: 500 keys of ~1,000 bytes differing only at the end.
    const prefix = 'p'.repeat(1_000);
    const longKeys = Array.from({ length: 500 }, (_, i) => `"${prefix}${i}":${i}`);
    installs(utf8(`{"version":1,${longKeys.join(',')}}`));
    refusedWith(
      utf8(`{"version":1,${longKeys.join(',')},"${prefix.slice(1)}\\u0070${499}":0}`),
      'json-duplicate-key',
    );
    // Duplicates inside a nested object count too.
    refusedWith(utf8(`{"version":1,"hooks":{"stop":[{"a":1,"\\u0061":2}]}}`), 'json-duplicate-key');
  });

  it('red if long backslash runs end strings in the wrong place or lose their bytes', () => {
    // Many strings each holding 1,000 escaped backslashes and an escaped quote.
    const run = '\\\\'.repeat(1_000);
    const strings = Array.from({ length: 200 }, () => `"${run}\\""`);
    const text = `{"version":1,"s":[${strings.join(',')}]}`;
    const result = installs(utf8(text));
    const parsed = JSON.parse(decodeStrict(result.desired)) as { s: string[] };
    expect(parsed.s).toStrictEqual(JSON.parse(text).s);
    // The original bytes stay in front of the appended member, unchanged.
    expect(bytesEqual(result.desired.subarray(0, text.length - 1), utf8(text.slice(0, -1)))).toBe(
      true,
    );
    // An odd run escapes the closing quote: the string never ends.
    refusedWith(utf8(`{"version":1,"s":"${'\\'.repeat(100_001)}"}`), 'json-syntax');
    installs(utf8(`{"version":1,"s":"${'\\'.repeat(100_000)}"}`));
  });

  it('red if 20,000 entries carrying the owned command are not refused as existing or duplicated', () => {
    const command = ownedEntry(LINUX.shell, LINUX.spec.executable, LINUX.spec.selector).command;
    const entries = new Array(20_000).fill(JSON.stringify({ command })).join(',');
    const text = `{"version":1,"hooks":{"stop":[${entries}]}}`;
    refusedWith(utf8(text), 'command-exists', ConflictError);
    const receipt = install(utf8('{"version":1}'), LINUX).receipt;
    const result = planNoThrow({
      document: utf8(text),
      operation: Operation.Remove,
      previous: receipt,
    });
    const error = expectRefusal(result, utf8(text), 'remove with duplicated owner');
    expect(error.reason).toBe('owner-duplicated');
  });

  it('red if the version decision is not exact decimal arithmetic on absurd lexemes', () => {
    for (const lexeme of [
      '1',
      '1.0',
      '1e0',
      '1.00E+00',
      '10e-1',
      '0.1E1',
      `1${'0'.repeat(5_000)}e-5000`,
      `0.${'0'.repeat(5_000)}1e5001`,
      `1.${'0'.repeat(100_000)}`,
    ]) {
      installs(utf8(`{"version":${lexeme}}`));
    }
    for (const lexeme of [
      '1e-999999999999',
      '1e999999999999',
      '1e-99999999999999999999999',
      `1.${'0'.repeat(100_000)}1`,
      `0.${'9'.repeat(100_000)}`,
      '-1',
      '1.1',
      '2',
      '0',
      '"1"',
      'true',
      'null',
      '[1]',
    ]) {
      refusedWith(utf8(`{"version":${lexeme}}`), 'version-unsupported');
    }
  });

  it('red if a malformed request (not an object, proxies that throw, non-byte documents) makes plan throw', () => {
    const hostile: unknown[] = [
      null,
      undefined,
      42,
      'install',
      [],
      throwingProxy(),
      { operation: Operation.Install, document: 'not bytes' },
      { operation: Operation.Install, document: new Uint16Array(4) },
      { operation: Operation.Install, document: new DataView(new ArrayBuffer(4)) },
      { operation: Operation.Install, document: [0x7b, 0x7d] },
      {
        get operation(): never {
          throw new Error('getter trap');
        },
      },
      {
        ...installRequest(utf8('{"version":1}')),
        specs: [throwingProxy()],
      },
      { ...installRequest(utf8('{"version":1}')), shell: throwingProxy() },
    ];
    for (const request of hostile) {
      let result: PlanResult | undefined;
      expect(() => {
        result = plan(request as PlanRequest);
      }).not.toThrow();
      expect(result?.conflict).toBe(true);
      expect(errorIs(result?.error, ConflictError)).toBe(true);
      expect(result?.receipt).toBeUndefined();
    }
  });
});
