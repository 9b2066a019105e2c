// Child process of the memory row (run by memory.ts with --expose-gc): plans an Install on the
// realistic 4 MiB document and prints, as one JSON line, how far the heap rose above its
// collected baseline while the plan ran.
//
// Method. V8 cannot be asked for a running peak, but between two collections the heap only
// grows, so its high-water mark during the plan is the largest of: the heap just before each
// collection that ran inside the plan (v8.GCProfiler records those), and the heap right after
// the plan returned (its result still alive). "Heap" is V8's used heap plus external memory,
// which holds ArrayBuffer backing stores (every Uint8Array, Int32Array and Buffer). The
// baseline is taken after two forced collections, with the input document already alive, so
// the figure is the extra memory the plan needs. When no collection ran, it is exactly every
// byte the plan allocated, garbage included: an upper bound on the live peak. Five warm-up
// plans run first, so compiled code does not count as the plan's data.

import v8 from 'node:v8';
import { type PlanResult, plan } from '../../src/index.js';
import { realistic4MiB } from './documents.js';
import { installRequest, succeeded } from './requests.js';

const WARMUP = 5;
const RUNS = 5;

interface Sample {
  readonly heap: number;
  readonly external: number;
}

const sample = (): Sample => {
  const stats = v8.getHeapStatistics();
  return { heap: stats.used_heap_size, external: stats.external_memory };
};
const total = (s: Sample) => s.heap + s.external;

function exposedGc(): () => void {
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('memory-probe needs node --expose-gc');
  return () => {
    gc();
  };
}
const collect = exposedGc();

const input = realistic4MiB();
const request = installRequest(input);
for (let i = 0; i < WARMUP; i++) succeeded(plan(request), 'warm-up Install');

/** The result of the run being measured: alive until the next run starts, then dropped. */
let result: PlanResult | undefined;

// One run per call, so no stack slot of an earlier run keeps its result alive into the next
// baseline.
function measureOnce() {
  result = undefined;
  collect();
  collect();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const before = sample();
  result = plan(request);
  const after = sample();
  const { statistics } = profiler.stop();
  const output = succeeded(result, 'measured Install').desired.length;
  const highs = statistics.map(
    ({ beforeGC }) => beforeGC.heapStatistics.usedHeapSize + beforeGC.heapStatistics.externalMemory,
  );
  const peak = Math.max(total(after), ...highs) - total(before);
  collect();
  collect();
  // `result` is still referenced, so its output and receipt count as retained.
  const retained = total(sample()) - total(before);
  return {
    peak,
    heap: after.heap - before.heap,
    external: after.external - before.external,
    collections: statistics.length,
    retained,
    output,
  };
}

const runs = Array.from({ length: RUNS }, measureOnce);
process.stdout.write(`${JSON.stringify({ input: input.length, runs })}\n`);
