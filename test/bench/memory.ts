// Issue 5, memory: peak extra heap during a 4 MiB Install plan, target ≤ 10× the input size.
// Measured in a child process started with --expose-gc (so `npm run bench` needs no flags and
// the timing rows' garbage cannot blur it); memory-probe.ts explains the method.

import { fileURLToPath } from 'node:url';
import { runInChild } from './measure.js';
import { bytes, type GroupReport, times } from './report.js';

const PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const TARGET = 10;

interface Run {
  readonly peak: number;
  readonly heap: number;
  readonly external: number;
  readonly collections: number;
  readonly retained: number;
  readonly output: number;
}

const isRun = (value: unknown): value is Run =>
  typeof value === 'object' &&
  value !== null &&
  ['peak', 'heap', 'external', 'collections', 'retained', 'output'].every(
    (key) => typeof Reflect.get(value, key) === 'number',
  );

function probe(): { input: number; runs: Run[] } {
  // The same loader as this process (tsx), plus --expose-gc.
  const stdout = runInChild(PROBE, ['--expose-gc']);
  const parsed: unknown = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  const input = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'input') : 0;
  const runs = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'runs') : [];
  if (
    typeof input !== 'number' ||
    !Array.isArray(runs) ||
    !runs.every(isRun) ||
    runs.length === 0
  ) {
    throw new Error(`memory probe printed an unexpected report: ${stdout}`);
  }
  return { input, runs };
}

export function memory(): GroupReport {
  const { input, runs } = probe();
  const worst = runs.reduce((a, b) => (b.peak > a.peak ? b : a));
  const multiple = worst.peak / input;
  const pass = multiple <= TARGET;
  return {
    tables: [
      {
        title: '4. Memory: extra heap during one 4 MiB Install plan (child process, --expose-gc)',
        notes: [
          `input: realistic document, ${bytes(input)}; ${runs.length} measured plans after 5 warm-up plans`,
          'method: gc() twice, baseline = V8 used heap + external (ArrayBuffer stores); run plan, keeping its result;',
          '  peak = max(heap + external right after plan, and just before every GC that ran inside it, from',
          '  v8.GCProfiler) - baseline. With 0 GCs inside the plan this is every byte it allocated (garbage',
          '  included), an upper bound on the live peak. retained = after two more gc() with the result alive.',
        ],
        columns: [
          'run',
          'peak extra',
          '× input',
          'of which heap',
          'external',
          'GCs in plan',
          'retained',
        ],
        rows: runs.map((run, i) => [
          i + 1,
          bytes(run.peak),
          times(run.peak / input),
          bytes(run.heap),
          bytes(run.external),
          run.collections,
          bytes(run.retained),
        ]),
      },
    ],
    targets: [
      {
        group: 'memory',
        name: 'peak extra heap, 4 MiB Install (worst of runs)',
        goal: `≤ ${TARGET}× input`,
        measured: `${times(multiple)} (${bytes(worst.peak)})`,
        pass,
      },
    ],
  };
}
