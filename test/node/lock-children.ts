// Runs the lock-holding child (child/hold-lock.ts) as real processes, bundled once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { HoldJob } from './child/hold-lock.js';

/** Bundles the child; returns its path and a clean-up. */
export async function buildHolder(): Promise<{ script: string; dispose: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-holder-'));
  const script = join(dir, 'hold-lock.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./child/hold-lock.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    logLevel: 'error',
  });
  return { script, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Running {
  readonly child: ChildProcess;
  /** Resolves with each JSON line the child prints, in order. */
  readonly line: () => Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `argv` (ending in the child script) with `job`; lines are read from its stdout. */
export function start(argv: readonly string[], job: HoldJob): Running {
  const [command, ...rest] = argv;
  const child = spawn(command ?? process.execPath, [...rest, JSON.stringify(job)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const next = waiting.shift();
      if (next === undefined) lines.push(line);
      else next(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = async (): Promise<Record<string, unknown>> => {
    const ready = lines.shift();
    const text = ready ?? (await new Promise<string>((resolve) => waiting.push(resolve)));
    return JSON.parse(text) as Record<string, unknown>;
  };
  return { child, line, exited };
}
