// JSON-layer benchmark: `npx tsx test/bench/json.bench.ts`.
//
// A realistic hooks document at the limits (≤ 4 MiB, ~65k nodes, strings of ~50–60 bytes, some
// non-ASCII), measured against JSON.parse as the baseline. Targets: the budget pass ≤ 0.5× the
// baseline, the full load + remainder digest ≤ 2×. A second 4 MiB document of strings dense with
// escapes (1,000 strings of 2,000 `\\` each) measures the byte-level re-escaping path, which
// the realistic document (escape-free strings, copied byte for byte) never takes. Nothing here
// asserts on timings; it only reports (the ratios of the escape rows are to their own baseline).

import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { Bench } from 'tinybench';
import { CursorHooksError } from '../../src/errors/errors.js';
import { findBudgetBreach } from '../../src/json/budget.js';
import { canonicalize } from '../../src/json/canonical.js';
import { digestOf } from '../../src/json/digest.js';
import { loadJson } from '../../src/json/load.js';
import { parseJson } from '../../src/json/parse.js';
import { assertStrictUtf8 } from '../../src/json/utf8.js';
import { MAX_DOCUMENT_BYTES, MAX_NODES } from '../../src/limits.js';

const WORDS = [
  'agent',
  'hooks',
  'cursor',
  'stop',
  'observer',
  'räksmörgås',
  'naïve',
  '中文',
  'проверка',
  'ünïcode',
  'build',
  'release',
  'deploy',
];

/** A deterministic pseudo-random source, so every run measures the same document. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const random = lcg(0x5eed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** A string of about `target` UTF-8 bytes made of path-like words. */
function text(target: number): string {
  let out = '/opt';
  while (Buffer.byteLength(out, 'utf8') < target) out += `/${pick(WORDS)}`;
  return out;
}

interface Entry {
  type: string;
  command: string;
  args: string[];
  timeout: number;
  failClosed: boolean;
}

// 16–23 args per entry at indent 4 fills both limits together: ~4 MiB and ~65.5k nodes.
const ARGS_MIN = 16;
const ARGS_SPREAD = 8;
const INDENT = 4;

/** The object, 5 keys, 5 values (one the args array), plus one node per arg. */
function entry(): Entry {
  return {
    type: 'command',
    command: text(45 + Math.floor(random() * 25)),
    args: Array.from({ length: ARGS_MIN + Math.floor(random() * ARGS_SPREAD) }, () =>
      text(40 + Math.floor(random() * 30)),
    ),
    timeout: 5,
    failClosed: random() < 0.5,
  };
}

const nodesOfEntry = (e: Entry) => 1 + 5 * 2 + e.args.length;

/** Adds entries to events until the next one would break either limit. */
function buildDocument(): Uint8Array {
  const hooks: Record<string, Entry[]> = {};
  const events = Array.from({ length: 40 }, (_, i) => `event${i}`);
  for (const name of events) hooks[name] = [];
  let nodes = 1 + 2 + 2 + 2 * events.length; // root, version + 1, hooks key + object, events
  let bytes = 0;
  for (let i = 0; ; i++) {
    const e = entry();
    const size = Buffer.byteLength(JSON.stringify(e, null, INDENT), 'utf8') * 1.2;
    if (nodes + nodesOfEntry(e) > MAX_NODES - 16 || bytes + size > MAX_DOCUMENT_BYTES * 0.97) break;
    hooks[events[i % events.length] as string]?.push(e);
    nodes += nodesOfEntry(e);
    bytes += size;
  }
  const out = new TextEncoder().encode(`${JSON.stringify({ version: 1, hooks }, null, INDENT)}\n`);
  const breach = findBudgetBreach(out);
  if (breach !== undefined) throw new Error(`benchmark document breaks the ${breach} limit`);
  return out;
}

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + countNodes(v), 0);
  if (typeof value === 'object' && value !== null) {
    return 1 + Object.values(value).reduce((n: number, v) => n + 1 + countNodes(v), 0);
  }
  return 1;
}

/**
 * `{"version":1,"hooks":{"stop":[…]}}` holding 1,000 strings of 2,000 `\\` escapes each:
 * ~4 MiB where every string takes the escaped (re-escaping) canonical path.
 */
function buildEscapeDocument(): Uint8Array {
  const escaped = `"${'\\\\'.repeat(2_000)}"`;
  const strings = Array.from({ length: 1_000 }, () => escaped).join(',');
  const out = new TextEncoder().encode(`{"version":1,"hooks":{"stop":[${strings}]}}`);
  const breach = findBudgetBreach(out);
  if (breach !== undefined) throw new Error(`escape document breaks the ${breach} limit`);
  return out;
}

const doc = buildDocument();
const escapeDoc = buildEscapeDocument();
const brackets = new Uint8Array(MAX_DOCUMENT_BYTES).fill(0x5b);
const decoded = new TextDecoder().decode(doc);
const nonAscii = decoded.length !== doc.length;
const stringBytes = [...decoded.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
  Buffer.byteLength(m[1] ?? '', 'utf8'),
);

console.log(
  `document: ${doc.length.toLocaleString('en')} bytes (limit ${MAX_DOCUMENT_BYTES.toLocaleString('en')}), ` +
    `${countNodes(JSON.parse(decoded)).toLocaleString('en')} nodes (limit ${MAX_NODES.toLocaleString('en')}), ` +
    `mean string ${(stringBytes.reduce((a, b) => a + b, 0) / stringBytes.length).toFixed(1)} bytes ` +
    `(values over 20 bytes: ${(
      stringBytes.filter((b) => b > 20).reduce((a, b) => a + b, 0) /
        stringBytes.filter((b) => b > 20).length
    ).toFixed(1)}), non-ASCII: ${nonAscii}`,
);

console.log(
  `escape document: ${escapeDoc.length.toLocaleString('en')} bytes, 1,000 strings of 2,000 \\\\ escapes`,
);

const root = parseJson(doc);
// Before timing anything: both documents must canonicalize to their own value, so the rows
// measure working code. (Sorted keys put "hooks" before "version".)
const canonicalText = (bytes: Uint8Array) =>
  new TextDecoder('utf-8', { fatal: true }).decode(canonicalize(bytes, parseJson(bytes)));
deepStrictEqual(JSON.parse(canonicalText(doc)), JSON.parse(decoded));
const escapeValue: unknown = JSON.parse(new TextDecoder().decode(escapeDoc));
if (typeof escapeValue !== 'object' || escapeValue === null || !('hooks' in escapeValue)) {
  throw new Error('escape document has no hooks');
}
strictEqual(canonicalText(escapeDoc), JSON.stringify({ hooks: escapeValue.hooks, version: 1 }));
const BASELINE = 'baseline JSON.parse(TextDecoder.decode)';
const ESCAPES = 'escapes: ';
let sink: unknown;
const bench = new Bench({ time: 1500, iterations: 20, warmupTime: 300, warmupIterations: 3 });

bench
  .add(BASELINE, () => {
    sink = JSON.parse(new TextDecoder().decode(doc));
  })
  .add('findBudgetBreach', () => {
    sink = findBudgetBreach(doc);
  })
  .add('loadJson + digestOf(remainder)', () => {
    const tree = loadJson(doc);
    sink = digestOf('remainder', tree.bytes, tree.root);
  })
  .add('refuse 4 MiB of [ via loadJson', () => {
    try {
      loadJson(brackets);
      throw new Error('4 MiB of [ was accepted');
    } catch (error) {
      if (!(error instanceof CursorHooksError) || error.reason !== 'document-too-deep') throw error;
      sink = error;
    }
  })
  // Breakdown of the pipeline, to see where a miss of the 2× target comes from.
  .add('  part: assertStrictUtf8', () => {
    assertStrictUtf8(doc);
    sink = doc;
  })
  .add('  part: parseJson', () => {
    sink = parseJson(doc);
  })
  .add('  part: canonicalize', () => {
    sink = canonicalize(doc, root);
  })
  // The escape-dense document, with its own JSON.parse baseline for comparison.
  .add(`${ESCAPES}${BASELINE}`, () => {
    sink = JSON.parse(new TextDecoder().decode(escapeDoc));
  })
  .add(`${ESCAPES}loadJson + digestOf(remainder)`, () => {
    const tree = loadJson(escapeDoc);
    sink = digestOf('remainder', tree.bytes, tree.root);
  });

await bench.run();

const medians = bench.tasks.map((task) => {
  const result = task.result;
  if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
  return { name: task.name, median: result.latency.p50, samples: result.latency.samplesCount };
});
const baselineOf = (name: string) =>
  medians.find((m) =>
    name.startsWith(ESCAPES) ? m.name === `${ESCAPES}${BASELINE}` : m.name === BASELINE,
  )?.median ?? Number.NaN;
const targets: Record<string, string> = {
  findBudgetBreach: '≤ 0.5×',
  'loadJson + digestOf(remainder)': '≤ 2×',
};

console.table(
  medians.map(({ name, median, samples }) => ({
    task: name,
    'median ms': Number(median.toFixed(3)),
    'ratio to baseline': Number((median / baselineOf(name)).toPrecision(3)),
    target: targets[name] ?? '',
    samples,
  })),
);
void sink;
