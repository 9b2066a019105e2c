// The benchmark suite: `npm run bench`. Prints one table per group, then a summary of every
// target with PASS/FAIL. Timings only report: the exit code is 0 whatever they show (a broken
// benchmark, e.g. a failed document pre-check, still exits non-zero). Group names after `--`
// run only those groups (`npm run bench -- startup files`); linearity brings the planner along.

import os from 'node:os';
import { adversarialInChild } from './adversarial.js';
import {
  foreignStringsFile,
  minified,
  realistic1MiB,
  realistic4MiB,
  userFile,
} from './documents.js';
import { fileCommands } from './file-commands.js';
import { hostile } from './hostile.js';
import { installCalls } from './install-calls.js';
import { jsonLayer } from './json-layer.js';
import { linearity } from './linearity.js';
import type { Settings } from './measure.js';
import { memory } from './memory.js';
import { observer } from './observer.js';
import { planner, type Size } from './planner.js';
import { type GroupReport, printSummary, printTable, type Target } from './report.js';
import { startup } from './startup.js';

const started = performance.now();
const SMALL: Settings = { time: 500, iterations: 10, warmupTime: 150, warmupIterations: 5 };
const LARGE: Settings = { time: 1500, iterations: 10, warmupTime: 300, warmupIterations: 3 };
/** jsonc-parser's modify at 1 MiB and 4 MiB: ~0.1 s and ~0.35 s a run; a few runs suffice. */
const SLOW: Partial<Settings> = { time: 0, iterations: 5, warmupTime: 0, warmupIterations: 1 };

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(`cursorhooks benchmarks: node ${process.version}, ${os.cpus().length} CPUs (${cpu})`);
console.log(`load average at start: ${load} (a busy machine makes every row slower and noisier)`);
console.log('medians of tinybench samples; progress goes to stderr');
console.log(
  'every group paired against a bare node runs both sides with PATH and HOME only (no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS)',
);

const GROUPS = [
  'json',
  'planner',
  'hostile',
  'memory',
  'linearity',
  'adversarial',
  'startup',
  'files',
  'syscalls',
  'observer',
] as const;
type Group = (typeof GROUPS)[number];
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(GROUPS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench group: ${unknown.join(', ')}; the groups are: ${GROUPS.join(', ')}`);
  process.exit(2);
}
const runs = (group: Group): boolean =>
  asked.length === 0 ||
  asked.includes(group) ||
  (group === 'planner' && asked.includes('linearity'));

const targets: Target[] = [];
function show(report: GroupReport): void {
  for (const table of report.tables) printTable(table);
  targets.push(...report.targets);
}

const doc4 =
  runs('json') || runs('planner') || runs('hostile') ? realistic4MiB() : new Uint8Array(0);

if (runs('json')) {
  process.stderr.write('1. JSON layer\n');
  show(jsonLayer(doc4));
}

/** The planner group's documents, made only when it runs. */
function plannerSizes(): Size[] {
  const sixtyKB = foreignStringsFile();
  const doc1 = realistic1MiB();
  return [
    {
      label: '2 KB',
      bytes: userFile(),
      rival: 'modify',
      settings: SMALL,
      interleaved: { rounds: 200, batch: 50 },
    },
    {
      label: '60 KB',
      bytes: sixtyKB,
      rival: 'modify',
      settings: SMALL,
      interleaved: { rounds: 150, batch: 4 },
    },
    {
      label: '60 KB min',
      bytes: minified(sixtyKB),
      rival: 'modify',
      reportOnly: true,
      settings: SMALL,
    },
    { label: '1 MiB', bytes: doc1, rival: 'parseTree', settings: LARGE, modifySettings: SLOW },
    { label: '4 MiB', bytes: doc4, rival: 'parseTree', settings: LARGE, modifySettings: SLOW },
  ];
}
let planned: ReturnType<typeof planner> | undefined;
if (runs('planner')) {
  process.stderr.write('2. planner\n');
  planned = planner(plannerSizes());
  show(planned.report);
}

if (runs('hostile')) {
  process.stderr.write('3. hostile inputs\n');
  show(hostile(doc4));
}

if (runs('memory')) {
  process.stderr.write('4. memory (child process)\n');
  show(memory());
}

if (runs('linearity') && planned !== undefined) {
  process.stderr.write('5. linearity\n');
  show(linearity(planned, '1 MiB', '4 MiB'));
}

if (runs('adversarial')) {
  process.stderr.write('6. adversarial legal documents (child process)\n');
  show(adversarialInChild());
}

if (runs('startup')) {
  process.stderr.write('7. CLI start-up (child processes)\n');
  show(startup());
}

if (runs('files')) {
  process.stderr.write('8. file-level commands (child processes)\n');
  show(fileCommands());
}

if (runs('syscalls')) {
  process.stderr.write('9. system calls of an install\n');
  show(await installCalls());
}

if (runs('observer')) {
  process.stderr.write('10. stop observer (child processes)\n');
  show(observer());
}

printSummary(targets);
console.log(`total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `load average at end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
