// Issue 9, a linear worst case: legal documents, each within every limit, built to make key
// handling expensive (escaped keys, many keys per object, many objects, long escaped strings,
// near-duplicate keys). `plan` (Install) must accept each one in at most 2.5× the time of
// decoding the same bytes and JSON.parse on them.

import { Buffer } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { plan } from '../../src/index.js';
import { scanBudget } from '../../src/json/budget.js';
import { MAX_DOCUMENT_BYTES, MAX_NODES } from '../../src/limits.js';
import { get, type Job, measure, runInChild, type Settings } from './measure.js';
import { type GroupReport, ms, type Target, times, verdict } from './report.js';
import { installRequest, succeeded } from './requests.js';

const SETTINGS: Settings = { time: 1000, iterations: 10, warmupTime: 200, warmupIterations: 2 };
const GROUP = 'adversarial';
const LIMIT = 2.5;
/** Room for the root, its version and the entry Install appends. */
const HEADROOM_BYTES = 1024;
const HEADROOM_NODES = 32;
const NEWLINE = '\\n';

interface Adversarial {
  readonly label: string;
  readonly bytes: Uint8Array;
}

/** `{"version":1,"data":<data>}`, checked to be within every limit. */
function document(label: string, data: string): Adversarial {
  const bytes = Buffer.from(`{"version":1,"data":${data}}`, 'utf8');
  if (bytes.length > MAX_DOCUMENT_BYTES - HEADROOM_BYTES) throw new Error(`${label}: too large`);
  const { breach, nodes } = scanBudget(bytes);
  if (breach !== undefined || nodes > MAX_NODES - HEADROOM_NODES) {
    throw new Error(`${label}: breaks the ${breach ?? 'node headroom'} limit`);
  }
  return { label, bytes };
}

/** How many containers of `nodes` nodes each fit in the data member, with the headroom. */
const fitting = (nodes: number) => Math.floor((MAX_NODES - 2 * HEADROOM_NODES) / nodes);

/** A distinct key: a run of `\n` escapes, then the index (so keys share the whole run). */
const escapedKey = (run: number, index: number) => `"${NEWLINE.repeat(run)}${index}"`;

/** Bytes each of `count` items may take, beside `overhead` bytes of punctuation each. */
const bytesEach = (count: number, overhead: number) =>
  Math.floor((MAX_DOCUMENT_BYTES - HEADROOM_BYTES - count * overhead) / count);

/** Many small objects, two keys each, every key a long run of `\n` escapes. */
function escapedKeysSmallObjects(): Adversarial {
  const objects = fitting(5);
  const run = Math.floor(bytesEach(objects, 20) / 2 / NEWLINE.length);
  const one = `{${escapedKey(run, 0)}:0,${escapedKey(run, 1)}:0}`;
  return document(
    `${objects.toLocaleString('en')} objects of 2 keys, ${run}-escape keys`,
    `[${Array(objects).fill(one).join(',')}]`,
  );
}

/** One object of `count` keys sharing one long run of escapes: both ordering paths. */
function escapedKeysOneObject(count: number): Adversarial {
  const run = Math.floor(bytesEach(count, 12) / NEWLINE.length);
  const members = Array.from({ length: count }, (_, i) => `${escapedKey(run, i)}:0`);
  return document(
    `1 object of ${count.toLocaleString('en')} keys, ${run.toLocaleString('en')}-escape keys`,
    `{${members.join(',')}}`,
  );
}

/** The node limit's worth of objects of 8 short escaped keys each. */
function manyObjects(): Adversarial {
  const objects = fitting(17);
  const keys = Array.from({ length: 8 }, (_, i) => `"\\u006b\\u0065\\u0079${i}":${i}`);
  const one = `{${keys.join(',')}}`;
  return document(
    `${objects.toLocaleString('en')} objects of 8 short escaped keys`,
    `[${Array(objects).fill(one).join(',')}]`,
  );
}

/** Sixteen string values sharing the byte budget, each a run of `\u00e9` escapes. */
function longEscapedStrings(): Adversarial {
  const run = Math.floor(bytesEach(16, 4) / 6);
  const value = `"${'\\u00e9'.repeat(run)}"`;
  return document(
    `16 strings of ${run.toLocaleString('en')} \\u00e9 escapes`,
    `[${Array(16).fill(value).join(',')}]`,
  );
}

/**
 * One object at the node limit whose keys share a long prefix and differ only at the end,
 * every other key escaped: escaped against plain comparisons on every path.
 */
function nearDuplicateKeys(): Adversarial {
  const count = fitting(2);
  const width = bytesEach(count, 16);
  const prefix = 'k'.repeat(width);
  const members = Array.from({ length: count }, (_, i) => {
    const tail = String(i).padStart(6, '0');
    return i % 2 === 0 ? `"${prefix}${tail}":0` : `"\\u006b${prefix.slice(1)}${tail}":0`;
  });
  return document(
    `1 object of ${count.toLocaleString('en')} near-duplicate ${width}-byte keys, half escaped`,
    `{${members.join(',')}}`,
  );
}

/** Plain keys that share all but their last bytes: each comparison reads a long prefix. */
function longPlainKeys(): Adversarial {
  const count = 200;
  const width = bytesEach(count, 12);
  const members = Array.from({ length: count }, (_, i) => {
    return `"${'k'.repeat(width - 4)}${String(i).padStart(4, '0')}":0`;
  });
  return document(
    `1 object of ${count} plain ${width.toLocaleString('en')}-byte keys, shared prefix`,
    `{${members.join(',')}}`,
  );
}

/**
 * Keys that differ first in an escape's marker right after a long run of escaped backslashes,
 * where telling a marker from a character means counting the run.
 */
function backslashRuns(): Adversarial {
  const markers = ['b', 'f', 'n', 'r', 't', '"', '\\'];
  const run = Math.floor(bytesEach(markers.length, 16) / 2);
  const members = markers.map((marker) => `"${'\\\\'.repeat(run)}\\${marker}":0`);
  return document(
    `1 object of ${markers.length} keys, ${run.toLocaleString('en')} \\\\ escapes, then differing escapes`,
    `{${members.join(',')}}`,
  );
}

function decodeAndParse(bytes: Uint8Array): unknown {
  return JSON.parse(new TextDecoder().decode(bytes));
}

export function adversarial(): GroupReport {
  const inputs: readonly Adversarial[] = [
    escapedKeysSmallObjects(),
    escapedKeysOneObject(8),
    escapedKeysOneObject(16),
    escapedKeysOneObject(17),
    escapedKeysOneObject(4096),
    manyObjects(),
    longEscapedStrings(),
    nearDuplicateKeys(),
    longPlainKeys(),
    backslashRuns(),
  ];
  // Before timing: each document is legal and accepted, so a row never times a refusal.
  for (const input of inputs) succeeded(plan(installRequest(input.bytes)), input.label);

  const jobs: Job[] = [];
  for (const input of inputs) {
    jobs.push({ name: `${input.label}: JSON.parse`, fn: () => decodeAndParse(input.bytes) });
    const request = installRequest(input.bytes);
    jobs.push({ name: `${input.label}: plan`, fn: () => succeeded(plan(request), input.label) });
  }
  const results = measure(jobs, SETTINGS);
  const targets: Target[] = [];
  const rows = inputs.map((input) => {
    const planned = get(results, `${input.label}: plan`).median;
    const parsed = get(results, `${input.label}: JSON.parse`).median;
    const ratio = planned / parsed;
    const pass = ratio <= LIMIT;
    targets.push({
      group: GROUP,
      name: input.label,
      goal: `≤ ${LIMIT}× decode + JSON.parse`,
      measured: `${times(ratio)} (${ms(planned)} vs ${ms(parsed)} ms)`,
      pass,
    });
    return [
      input.label,
      input.bytes.length.toLocaleString('en'),
      ms(planned),
      ms(parsed),
      times(ratio),
      verdict(pass),
    ];
  });
  return {
    tables: [
      {
        title: '6. Adversarial legal documents: plan (Install) vs decode + JSON.parse',
        notes: [
          'each document is within every limit and accepted; plan appends the owned entry',
          `target: plan ≤ ${LIMIT}× TextDecoder + JSON.parse on the same bytes`,
        ],
        columns: ['input', 'bytes', 'plan ms', 'decode + JSON.parse ms', '×', 'verdict'],
        rows,
      },
    ],
    targets,
  };
}

const SELF = fileURLToPath(import.meta.url);

/**
 * The group in a process of its own: after the earlier groups, the JIT and heap state they
 * leave behind made its plan rows two to four times slower in one full run, which measured
 * the bench rather than plan. Progress still goes to stderr.
 */
export function adversarialInChild(): GroupReport {
  return JSON.parse(runInChild(SELF)) as GroupReport;
}

if (process.argv[1] === SELF) process.stdout.write(JSON.stringify(adversarial()));
