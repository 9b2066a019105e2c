// A stop observer on cursorhooks/observer answering one stop, against a bare `node -e 0`: at
// most 1.3× (issue 35), since Cursor starts the observer on every stop. Paired runs as in the
// CLI start-up group, in the same clean environment (CLEAN_ENV), so neither side pays for a
// preload the other skips.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type GroupReport, ms, type Target, times } from './report.js';
import { CLEAN_ENV, CLEAN_ENV_NOTE } from './startup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OBSERVER = fileURLToPath(new URL('observer-stop.mjs', import.meta.url));
export const OBSERVER_TARGET = 1.3;
const ROUNDS = 31;
const PAYLOAD = JSON.stringify({
  conversation_id: 'c0ffee00-0000-4000-8000-000000000001',
  generation_id: 'g-1',
  hook_event_name: 'stop',
  workspace_roots: ['/home/user/project'],
  cursor_version: '3.40.1',
  status: 'completed',
  loop_count: 0,
});

/** Wall time of one process, start to exit, in milliseconds; a wrong answer ends the bench. */
function time(args: readonly string[], stdin: string, expected: string): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, {
    input: stdin,
    encoding: 'utf8',
    env: CLEAN_ENV,
  });
  const elapsed = performance.now() - started;
  if (child.status !== 0 || child.stdout !== expected) {
    throw new Error(
      `${args.join(' ')} exited ${child.status} with ${child.stdout}: ${child.stderr}`,
    );
  }
  return elapsed;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

export function observer(): GroupReport {
  // Always measure the current sources: a stale dist would time yesterday's observer.
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  execFileSync('npm', ['run', '--silent', 'build:observer'], { cwd: ROOT, stdio: 'pipe' });
  const bare = () => time(['-e', '0'], '', '');
  const stop = () => time([OBSERVER], PAYLOAD, '{}\n');
  stop(); // warm the file cache
  const bares: number[] = [];
  const stops: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so load that comes and goes hits both sides alike.
    const bareFirst = round % 2 === 0;
    const first = bareFirst ? bare() : stop();
    const second = bareFirst ? stop() : bare();
    const [b, s] = bareFirst ? [first, second] : [second, first];
    bares.push(b);
    stops.push(s);
    ratios.push(s / b);
  }
  const ratio = median(ratios);
  const target: Target = {
    group: 'observer',
    name: 'an observer on cursorhooks/observer answering one stop vs node -e 0',
    goal: `≤ ${OBSERVER_TARGET}×`,
    measured: times(ratio),
    pass: ratio <= OBSERVER_TARGET,
  };
  return {
    tables: [
      {
        title: `10. stop observer: one stop answered vs a bare node -e 0 (${ROUNDS} paired runs)`,
        notes: [
          'wall time per process in ms (medians); ratio = median of the per-pair ratios',
          CLEAN_ENV_NOTE,
          'the observer: test/bench/observer-stop.mjs, importing cursorhooks/observer (the built entry), a stop payload on stdin, {} on stdout',
        ],
        columns: ['case', 'node -e 0', 'observer', 'ratio'],
        rows: [['one stop', ms(median(bares)), ms(median(stops)), times(ratio)]],
      },
    ],
    targets: [target],
  };
}
