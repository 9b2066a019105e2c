// The benchmark suite: `npm run bench`. Prints one table per group, then a summary of every
// target with PASS/FAIL. Timings only report: the exit code is 0 whatever they show (a broken
// benchmark, e.g. a failed document pre-check, still exits non-zero).

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

const targets: Target[] = [];
function show(report: GroupReport): void {
  for (const table of report.tables) printTable(table);
  targets.push(...report.targets);
}

const doc4 = realistic4MiB();
const doc1 = realistic1MiB();

process.stderr.write('1. JSON layer\n');
show(jsonLayer(doc4));

const sixtyKB = foreignStringsFile();
const sizes: Size[] = [
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
process.stderr.write('2. planner\n');
const planned = planner(sizes);
show(planned.report);

process.stderr.write('3. hostile inputs\n');
show(hostile(doc4));

process.stderr.write('4. memory (child process)\n');
show(memory());

process.stderr.write('5. linearity\n');
show(linearity(planned, '1 MiB', '4 MiB'));

process.stderr.write('6. adversarial legal documents (child process)\n');
show(adversarialInChild());

process.stderr.write('7. CLI start-up (child processes)\n');
show(startup());

process.stderr.write('8. file-level commands (child processes)\n');
show(fileCommands());

process.stderr.write('9. system calls of an install\n');
show(await installCalls());

printSummary(targets);
console.log(`total bench time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `load average at end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
