// Builds the child script once into one file (so each child starts in a fraction of the time
// tsx takes) and runs it as separate processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ChildJob } from './operate.js';
import type { QualifyJob } from './qualify.js';
import type { RoundsJob } from './rounds.js';
import { COVERAGE_BANNER, strykerChild } from './stryker.js';

export interface ChildResult {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly output:
    | { status: string; reason?: string; calls: number; seen?: readonly string[] }
    | undefined;
}

/** Bundles a child script of this folder (default `operate`); returns its path and a clean-up. */
export async function buildChild(
  name: 'operate' | 'rounds' | 'hold-lock' | 'lock-timing' | 'qualify' | 'recorder' = 'operate',
): Promise<{ script: string; dispose: () => void }> {
  // Under the project's node_modules, as an installed package's files are: from a temporary
  // directory the bundle could not require the optional xattr module, and every write over an
  // existing file would be refused metadata-not-preserved.
  const dir = mkdtempSync(
    fileURLToPath(new URL('../../../node_modules/.cache-child-', import.meta.url)),
  );
  const script = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    // Bundled CommonJS dependencies call require; give them Node's.
    banner: {
      js: `import { createRequire as __cursorhooksRequire } from 'node:module'; const require = __cursorhooksRequire(import.meta.url);\n${COVERAGE_BANNER}`,
    },
    logLevel: 'error',
  });
  return { script, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export function runChild(
  script: string,
  job: ChildJob | RoundsJob | QualifyJob,
): Promise<ChildResult> {
  const stryker = strykerChild();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: stryker.env,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      stryker.exited();
      resolve({ code, signal, output: stdout === '' ? undefined : JSON.parse(stdout) });
    });
  });
}

/** Runs `jobs` with at most `width` children at a time, results in job order. */
export async function runChildren(
  script: string,
  jobs: readonly (ChildJob | QualifyJob)[],
  width: number,
): Promise<ChildResult[]> {
  const results: ChildResult[] = new Array(jobs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await runChild(script, jobs[index] as ChildJob | QualifyJob);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}
