// A stop observer on cursorhooks/observer answering one stop, against a bare `node -e 0`: at
// most 1.3× (issue 35), since Cursor starts the observer on every stop. Paired runs as in the
// CLI start-up group, in the same clean environment (CLEAN_ENV), so neither side pays for a
// preload the other skips. The target is the CommonJS observer's; the ES module observer and the
// two floors (a script with no kit reading stdin, in each module format) are reported beside it,
// so the kit's own share shows; a third floor requires the CommonJS one by name through an exports
// map, which is what Node itself charges before the first line of any subpath export runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type GroupReport, ms, type Target, times } from './report.js';
import { CLEAN_ENV, CLEAN_ENV_NOTE } from './startup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
/** Each row's script; `target` marks the one the 1.3× applies to. */
const SCRIPTS = [
  { label: 'observer, CommonJS (require)', file: script('observer-stop.cjs'), target: true },
  { label: 'observer, ES module (import)', file: script('observer-stop.mjs'), target: false },
  {
    label: 'floor: CommonJS reading stdin, no kit',
    file: script('floors/stdin.cjs'),
    target: false,
  },
  {
    label: 'floor: the same, required through an exports map',
    file: script('floors/stdin-through-exports.cjs'),
    target: false,
  },
  {
    label: 'floor: ES module reading stdin, no kit',
    file: script('floors/stdin.mjs'),
    target: false,
  },
] as const;
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
  const stop = (file: string) => time([file], PAYLOAD, '{}\n');
  for (const { file } of SCRIPTS) stop(file); // warm the file cache
  const bares: number[] = [];
  const stops = SCRIPTS.map(() => [] as number[]);
  const ratios = SCRIPTS.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    SCRIPTS.forEach(({ file }, index) => {
      // Alternate which goes first, so load that comes and goes hits both sides alike.
      const bareFirst = round % 2 === 0;
      const first = bareFirst ? bare() : stop(file);
      const second = bareFirst ? stop(file) : bare();
      const [b, s] = bareFirst ? [first, second] : [second, first];
      bares.push(b);
      stops[index]?.push(s);
      ratios[index]?.push(s / b);
    });
  }
  const ratioOf = (index: number) => median(ratios[index] ?? []);
  const targetIndex = SCRIPTS.findIndex((entry) => entry.target);
  const ratio = ratioOf(targetIndex);
  const target: Target = {
    group: 'observer',
    name: 'a CommonJS observer on cursorhooks/observer answering one stop vs node -e 0',
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
          'the observers: test/bench/observer-stop.cjs and .mjs, each taking cursorhooks/observer by name (the built entry), a stop payload on stdin, {} on stdout',
          'the floors: test/bench/floors/stdin.cjs and .mjs, process.stdin read and {} written with no kit',
          'test/bench/floors/stdin-through-exports.cjs requires stdin.cjs by name through an exports map, as any observer takes a package by a subpath: Node loads its ES resolver for it, even under require',
          `the target (${OBSERVER_TARGET}×) is the CommonJS observer's; an ES module observer pays for Node's ES loader on every stop, as its floor shows`,
        ],
        columns: ['case', 'node -e 0', 'script', 'ratio'],
        rows: SCRIPTS.map(({ label }, index) => [
          label,
          ms(median(bares)),
          ms(median(stops[index] ?? [])),
          times(ratioOf(index)),
        ]),
      },
    ],
    targets: [target],
  };
}
