// A thin tinybench wrapper: runs jobs one after another, synchronously, and returns each one's
// median latency. Every job gets its own Bench so slow rows can have fewer iterations.

import { spawnSync } from 'node:child_process';
import { Bench } from 'tinybench';

export interface Settings {
  /** Time budget per job in ms; a job runs until both this and `iterations` are met. */
  readonly time: number;
  readonly iterations: number;
  readonly warmupTime: number;
  readonly warmupIterations: number;
}

export interface Job {
  readonly name: string;
  /** Its result is kept in a sink, so the work cannot be optimised away. */
  readonly fn: () => unknown;
  /** Overrides of the group settings, for the rows that take a second or more each. */
  readonly settings?: Partial<Settings>;
}

export interface Measured {
  readonly median: number;
  /** Median absolute deviation, as a fraction of the median: how noisy the row was. */
  readonly spread: number;
  readonly samples: number;
}

let sink: unknown;

/** Runs `jobs` in order and returns their medians (ms) by job name. */
export function measure(jobs: readonly Job[], settings: Settings): Map<string, Measured> {
  const out = new Map<string, Measured>();
  for (const job of jobs) {
    if (out.has(job.name)) throw new Error(`duplicate benchmark job: ${job.name}`);
    const bench = new Bench({ ...settings, ...job.settings, throws: true });
    bench.add(job.name, () => {
      sink = job.fn();
    });
    process.stderr.write(`  measuring ${job.name}\n`);
    const [task] = bench.runSync();
    const result = task?.result;
    if (result === undefined || result.state !== 'completed') {
      throw new Error(`${job.name}: ${result?.state ?? 'no result'}`);
    }
    const { p50, mad, samplesCount } = result.latency;
    out.set(job.name, { median: p50, spread: mad / p50, samples: samplesCount });
  }
  void sink;
  return out;
}

/** The measurement of `name`, which must have been measured. */
export function get(results: ReadonlyMap<string, Measured>, name: string): Measured {
  const measured = results.get(name);
  if (measured === undefined) throw new Error(`not measured: ${name}`);
  return measured;
}

/**
 * For ratios between jobs on a busy machine: runs every job once per round, round after
 * round, so drift in machine load or heap state falls on all of them alike, and returns each
 * job's median over the rounds after `warmupRounds`.
 */
export function interleave(
  jobs: readonly Job[],
  rounds: number,
  warmupRounds: number,
  /** Calls per sample, for jobs too short to time one call at a time. */
  batch = 1,
): Map<string, Measured> {
  const samples = new Map<string, number[]>(jobs.map((job) => [job.name, []]));
  process.stderr.write(`  measuring ${jobs.length} jobs interleaved, ${rounds} rounds\n`);
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (const job of jobs) {
      const start = performance.now();
      for (let call = 0; call < batch; call++) sink = job.fn();
      const elapsed = (performance.now() - start) / batch;
      if (round >= warmupRounds) samples.get(job.name)?.push(elapsed);
    }
  }
  void sink;
  const out = new Map<string, Measured>();
  for (const [name, values] of samples) {
    const median = medianOf(values);
    const spread = medianOf(values.map((v) => Math.abs(v - median))) / median;
    out.set(name, { median, spread, samples: values.length });
  }
  return out;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? Number.NaN) + upper) / 2;
}

/**
 * Runs a bench script in a process of its own, with this process's loader (tsx) and `flags`,
 * and returns what it printed on stdout; its progress goes straight to stderr.
 */
export function runInChild(script: string, flags: readonly string[] = []): string {
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, script], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`${script} failed (exit ${child.status})`);
  return child.stdout;
}
