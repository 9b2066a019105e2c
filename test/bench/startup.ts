// CLI start-up against a bare `node -e 0` on the same machine: `--version`, `plan`, `status` and
// `install --dry-run` at most 1.2× (issue 20), every other call at most 1.5× (issue 8). Paired
// runs: every round starts both processes back to back (alternating which goes first), so load
// that comes and goes hits both; the verdict is the median of the per-pair ratios. Both sides run
// in one clean environment (CLEAN_ENV): a preload such as NODE_EXTRA_CA_CERTS adds the same fixed
// cost to both and hides the CLI's own. Each row also says what the call loads (counted once
// through a module-load hook, never timed).

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinuxUserShell32212, Operation, plan } from '../../src/index.js';
import { moduleLoads } from '../cli/module-loads.js';
import { type Cell, type GroupReport, ms, type Target, times } from './report.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/cli-main.cjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const EMPTY_SCRIPT = fileURLToPath(new URL('./floors/empty.cjs', import.meta.url));
/** The commands issue 20 names; `OTHER` for the rest. */
export const TARGET = 1.2;
export const OTHER = 1.5;
export const ROUNDS = 21;
/**
 * The environment of every timed process, bare node's and the CLI's alike: PATH and HOME only, so
 * no NODE_OPTIONS or NODE_EXTRA_CA_CERTS (a certificate bundle read on every start) rides along.
 */
export const CLEAN_ENV: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
};
/** The note each paired table carries, naming the environment it ran in. */
export const CLEAN_ENV_NOTE = `both sides in a clean environment: PATH and HOME=${CLEAN_ENV.HOME} only (no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS)`;

export interface Call {
  readonly label: string;
  readonly args: readonly string[];
  readonly stdin: string;
  /** The ratio the call may cost at most; without one the row only reports. */
  readonly target?: number;
  /** Runs before each round, untimed: e.g. restores the file a real write changed. */
  readonly prepare?: () => void;
  /**
   * A floor row: this script runs in place of the built CLI, to show what Node and the system
   * charge for the call's unavoidable part with no kit at all. It reports, never has a target.
   */
  readonly floor?: string;
}

export const COLUMNS = ['command', 'node -e 0', 'cursorhooks', 'ratio', 'modules', 'node'];
export const LOADS_NOTE =
  "modules: the bundle's source modules the call evaluates; node: Node's own modules it loads beyond node -e 0";

function calls(): Call[] {
  const request = {
    operation: Operation.Install,
    specs: [{ executable: '/opt/agent/bin/agent', selector: '/opt/agent/stop.json' }],
    shell: LinuxUserShell32212,
    executableVerified: true,
  };
  const { desired, receipt } = plan(request);
  const verify = { document: new TextDecoder().decode(desired), receipt: receipt?.toJSON() };
  return [
    { label: '--version', args: ['--version'], stdin: '', target: TARGET },
    { label: 'plan', args: ['plan'], stdin: JSON.stringify(request), target: TARGET },
    { label: 'verify', args: ['verify'], stdin: JSON.stringify(verify), target: OTHER },
    {
      label: 'render-argv',
      args: ['render-argv', '--shell', LinuxUserShell32212, '--', '/opt/agent', 'stop'],
      stdin: '',
      target: OTHER,
    },
    { label: 'contracts', args: ['contracts'], stdin: '', target: OTHER },
    { label: '--help', args: ['--help'], stdin: '', target: OTHER },
    // What running any script file costs beside `node -e 0`: the CLI's start is measured from here.
    { label: 'floor: an empty script, no kit', args: [], stdin: '', floor: EMPTY_SCRIPT },
  ];
}

/** Wall time of one process in CLEAN_ENV, start to exit, in milliseconds; a failed call ends the bench. */
export function time(args: readonly string[], stdin: string): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, {
    input: stdin,
    encoding: 'utf8',
    env: CLEAN_ENV,
  });
  const elapsed = performance.now() - started;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return elapsed;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
};

/** One call paired with a bare `node -e 0`, ROUNDS times: the medians and the median ratio. */
export function measure(call: Call): { bare: number; cli: number; ratio: number } {
  const args = [call.floor ?? CLI, ...call.args];
  const bare: number[] = [];
  const cli: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    call.prepare?.();
    const cliFirst = round % 2 === 1;
    const first = cliFirst ? time(args, call.stdin) : time(['-e', '0'], '');
    const second = cliFirst ? time(['-e', '0'], '') : time(args, call.stdin);
    const [b, c] = cliFirst ? [second, first] : [first, second];
    bare.push(b);
    cli.push(c);
    ratios.push(c / b);
  }
  return { bare: median(bare), cli: median(cli), ratio: median(ratios) };
}

/**
 * A call's row of a start-up table and its target: the timings, then what it loads. A floor row
 * has no target and no module counts (they count the bundle's modules).
 */
export function startupRow(group: string, call: Call): { row: Cell[]; target?: Target } {
  const { bare, cli, ratio } = measure(call);
  if (call.floor !== undefined)
    return { row: [call.label, ms(bare), ms(cli), times(ratio), '–', '–'] };
  call.prepare?.();
  const { evaluated, builtins } = moduleLoads(call.args, call.stdin);
  return {
    row: [call.label, ms(bare), ms(cli), times(ratio), evaluated.length, builtins.length],
    target: {
      group,
      name: `cursorhooks ${call.label} vs node -e 0`,
      goal: call.target === undefined ? 'reported' : `≤ ${call.target}×`,
      measured: times(ratio),
      pass: call.target === undefined ? undefined : ratio <= call.target,
    },
  };
}

/** The build's code caches and their sizes, e.g. `cli-main.status.cache 324 KB`. */
function codeCaches(): string {
  return readdirSync(DIST)
    .filter((name) => /^cli-main(\.[a-z]+)?\.cache$/.test(name))
    .map((name) => `${name} ${(statSync(join(DIST, name)).size / 1024).toFixed(0)} KB`)
    .join(', ');
}

export function startup(): GroupReport {
  // Always measure the current sources: a stale dist would time yesterday's CLI.
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
  time([CLI, 'contracts'], ''); // warm the file cache
  const rows: Cell[][] = [];
  const targets: Target[] = [];
  for (const call of calls()) {
    const { row, target } = startupRow('start-up', call);
    rows.push(row);
    if (target !== undefined) targets.push(target);
  }
  return {
    tables: [
      {
        title: `7. CLI start-up: built CLI vs a bare node -e 0 (${ROUNDS} paired runs each)`,
        notes: [
          'wall time per process in ms (medians); ratio = median of the per-pair ratios',
          CLEAN_ENV_NOTE,
          LOADS_NOTE,
          `the bundle is one file of ${(statSync(BUNDLE).size / 1024).toFixed(0)} KB, read whole by every call, with the code cache for its command: ${codeCaches()}`,
        ],
        columns: COLUMNS,
        rows,
      },
    ],
    targets,
  };
}
