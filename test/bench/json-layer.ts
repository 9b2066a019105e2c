// Issue 2: the JSON layer on a realistic document at the limits, against JSON.parse.
//
// Targets: the budget pass ≤ 0.5× the baseline, the full load + remainder digest ≤ 2×. The
// escape-dense document (1,000 strings of 2,000 `\\` each) measures the byte-level
// re-escaping path, which the realistic document (escape-free strings, copied byte for byte)
// never takes; its ratio is to its own JSON.parse baseline and only reported.

import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import { CursorHooksError } from '../../src/errors/errors.js';
import { scanBudget } from '../../src/json/budget.js';
import { writeCanonical } from '../../src/json/canonical.js';
import { digestOf } from '../../src/json/digest.js';
import { loadJson } from '../../src/json/load.js';
import { parseJson } from '../../src/json/parse.js';
import { StringSpans } from '../../src/json/string-spans.js';
import type { JsonNode } from '../../src/json/tree.js';
import { assertStrictUtf8 } from '../../src/json/utf8.js';
import { deepBrackets, describe, escapeDocument } from './documents.js';
import { get, type Job, measure, type Settings } from './measure.js';
import { type GroupReport, ms, type Target, times, verdict } from './report.js';

const SETTINGS: Settings = { time: 1200, iterations: 20, warmupTime: 300, warmupIterations: 3 };
const GROUP = 'JSON layer';

const decodeAndParse = (bytes: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(bytes));

/** The canonical bytes of `node`, through a buffer that holds them whole. */
const canonicalOf = (node: JsonNode): Uint8Array =>
  writeCanonical(node, new Uint8Array(node.end - node.start + 1), () => {
    throw new Error('the canonical form outgrew its source');
  });

/** Both documents must canonicalize to their own value, so the rows measure working code. */
function preCheck(doc: Uint8Array, escapeDoc: Uint8Array): void {
  const canonicalText = (bytes: Uint8Array) =>
    new TextDecoder('utf-8', { fatal: true }).decode(canonicalOf(parseJson(bytes)));
  // Sorted keys put "hooks" before "version".
  deepStrictEqual(JSON.parse(canonicalText(doc)), decodeAndParse(doc));
  const escapeValue = decodeAndParse(escapeDoc);
  if (typeof escapeValue !== 'object' || escapeValue === null || !('hooks' in escapeValue)) {
    throw new Error('escape document has no hooks');
  }
  strictEqual(canonicalText(escapeDoc), JSON.stringify({ hooks: escapeValue.hooks, version: 1 }));
}

export function jsonLayer(doc: Uint8Array): GroupReport {
  const escapeDoc = escapeDocument();
  const brackets = deepBrackets();
  preCheck(doc, escapeDoc);
  const root = parseJson(doc);
  // The parser as loadJson runs it: with the budget pass's string readings of the same bytes.
  const spans = new StringSpans();
  const { nodes } = scanBudget(doc, spans);

  const rows: readonly { job: Job; base: string; target?: number }[] = [
    {
      job: { name: 'baseline JSON.parse(TextDecoder.decode)', fn: () => decodeAndParse(doc) },
      base: 'realistic',
    },
    {
      job: { name: 'scanBudget', fn: () => scanBudget(doc) },
      base: 'realistic',
      target: 0.5,
    },
    {
      job: {
        name: 'loadJson + digestOf(remainder)',
        fn: () => {
          const tree = loadJson(doc);
          return digestOf('remainder', tree.root);
        },
      },
      base: 'realistic',
      target: 2,
    },
    {
      job: {
        name: 'refuse 4 MiB of [ via loadJson',
        fn: () => {
          try {
            loadJson(brackets);
          } catch (error) {
            if (error instanceof CursorHooksError && error.reason === 'document-too-deep') {
              return error;
            }
            throw error;
          }
          throw new Error('4 MiB of [ was accepted');
        },
      },
      base: 'realistic',
    },
    // Breakdown of the pipeline, to see where a miss of the 2× target comes from.
    {
      job: {
        name: '  part: assertStrictUtf8',
        fn: () => {
          assertStrictUtf8(doc);
          return doc;
        },
      },
      base: 'realistic',
    },
    {
      job: {
        name: '  part: parseJson with the budget readings',
        fn: () => parseJson(doc, nodes, spans),
      },
      base: 'realistic',
    },
    { job: { name: '  part: parseJson alone', fn: () => parseJson(doc) }, base: 'realistic' },
    { job: { name: '  part: canonicalize', fn: () => canonicalOf(root) }, base: 'realistic' },
    {
      job: {
        name: 'escapes: baseline JSON.parse(TextDecoder.decode)',
        fn: () => decodeAndParse(escapeDoc),
      },
      base: 'escapes',
    },
    {
      job: {
        name: 'escapes: loadJson + digestOf(remainder)',
        fn: () => {
          const tree = loadJson(escapeDoc);
          return digestOf('remainder', tree.root);
        },
      },
      base: 'escapes',
    },
  ];

  const results = measure(
    rows.map((row) => row.job),
    SETTINGS,
  );
  const baselines: Record<string, number> = {
    realistic: get(results, 'baseline JSON.parse(TextDecoder.decode)').median,
    escapes: get(results, 'escapes: baseline JSON.parse(TextDecoder.decode)').median,
  };
  const targets: Target[] = [];
  const tableRows = rows.map(({ job, base, target }) => {
    const { median, spread, samples } = get(results, job.name);
    const ratio = median / (baselines[base] ?? Number.NaN);
    const pass = target === undefined ? undefined : ratio <= target;
    if (target !== undefined) {
      targets.push({
        group: GROUP,
        name: job.name,
        goal: `≤ ${target}× JSON.parse`,
        measured: `${times(ratio)} (${ms(median)} ms)`,
        pass,
      });
    }
    return [
      job.name,
      ms(median),
      times(ratio),
      target === undefined ? '' : `≤ ${target}×`,
      target === undefined ? '' : verdict(pass),
      `${(spread * 100).toFixed(1)}%`,
      samples,
    ];
  });
  const refusal = get(results, 'refuse 4 MiB of [ via loadJson').median;
  targets.push({
    group: GROUP,
    name: 'refuse 4 MiB of [ via loadJson',
    goal: 'report',
    measured: `${times(refusal / (baselines.realistic ?? Number.NaN))} (${ms(refusal)} ms)`,
    pass: undefined,
  });
  const escapes = get(results, 'escapes: loadJson + digestOf(remainder)').median;
  targets.push({
    group: GROUP,
    name: 'escape-dense 4 MiB: loadJson + digestOf(remainder)',
    goal: 'report (vs its own JSON.parse)',
    measured: `${times(escapes / (baselines.escapes ?? Number.NaN))} (${ms(escapes)} ms)`,
    pass: undefined,
  });

  return {
    tables: [
      {
        title: '1. JSON layer (issue 2)',
        notes: [
          `realistic document: ${describe(doc)}`,
          `escape document: ${escapeDoc.length.toLocaleString('en')} bytes, 1,000 strings of 2,000 \\\\ escapes`,
          'ratios: rows starting "escapes:" to the escape document\'s own JSON.parse; all others to the realistic one',
          'spread: median absolute deviation / median',
        ],
        columns: ['task', 'median ms', 'ratio', 'target', 'verdict', 'spread', 'samples'],
        rows: tableRows,
      },
    ],
    targets,
  };
}
