// Issue 5, linearity: plan time per MiB at 1 MiB and at 4 MiB, on documents of the same
// generator and density; the 4 MiB / 1 MiB ratio should be about 1.
//
// A ratio of two medians taken tens of seconds apart on a busy 2-core machine mostly measures
// the drift between them, so this group runs its own interleaved rounds (1 MiB then 4 MiB,
// for each op, round after round). The planner rows' tinybench medians are shown beside it.

import { plan } from '../../src/index.js';
import { get, interleave, type Job } from './measure.js';
import { OPS, type Op, type PlannerResults, type Prepared } from './planner.js';
import { type GroupReport, ms, type Target, verdict } from './report.js';
import { succeeded } from './requests.js';

const MiB = 1024 * 1024;
const ROUNDS = 25;
const WARMUP_ROUNDS = 3;
const LIMIT = 1.25;

export function linearity(
  planned: PlannerResults,
  smallLabel: string,
  largeLabel: string,
): GroupReport {
  const find = (label: string): Prepared => {
    const found = planned.prepared.find((p) => p.size.label === label);
    if (found === undefined) throw new Error(`no prepared size ${label}`);
    return found;
  };
  const small = find(smallLabel);
  const large = find(largeLabel);
  const name = (p: Prepared, op: Op) => `${p.size.label} plan ${op}`;
  const jobs: Job[] = OPS.flatMap((op) =>
    [small, large].map((p) => {
      const request = p.requests[op];
      return { name: name(p, op), fn: () => succeeded(plan(request), name(p, op)) };
    }),
  );
  const results = interleave(jobs, ROUNDS, WARMUP_ROUNDS);
  const mib = (p: Prepared) => p.inputs.Install.length / MiB;
  const fromRows = (p: Prepared, op: Op) => {
    const measured = planned.medians.get(p.size.label)?.[op];
    return measured === undefined ? Number.NaN : measured.median / mib(p);
  };
  const targets: Target[] = [];
  const rows = OPS.map((op) => {
    const a = get(results, name(small, op)).median / mib(small);
    const b = get(results, name(large, op)).median / mib(large);
    const ratio = b / a;
    const gated = op === 'Install';
    const pass = gated ? ratio <= LIMIT : undefined;
    if (gated) {
      targets.push({
        group: 'linearity',
        name: 'plan Install ms/MiB at 4 MiB ÷ at 1 MiB (interleaved)',
        goal: `≈ 1 (≤ ${LIMIT})`,
        measured: `${ratio.toFixed(2)} (${ms(a)} → ${ms(b)} ms/MiB)`,
        pass,
      });
    }
    const rowsRatio = fromRows(large, op) / fromRows(small, op);
    return [op, ms(a), ms(b), ratio.toFixed(2), verdict(pass), rowsRatio.toFixed(2)];
  });
  return {
    tables: [
      {
        title: '5. Linearity: plan time per MiB, 1 MiB vs 4 MiB',
        notes: [
          `${small.size.label} = ${small.inputs.Install.length.toLocaleString('en')} bytes, ${large.size.label} = ${large.inputs.Install.length.toLocaleString('en')} bytes: same generator and density`,
          `medians of ${ROUNDS} interleaved rounds (after ${WARMUP_ROUNDS} warm-up rounds); last column: the same ratio from the planner rows`,
          `target on Install: the 4 MiB / 1 MiB ratio ≈ 1 (≤ ${LIMIT}; below 1 means fixed costs amortise)`,
        ],
        columns: [
          'op',
          `${small.size.label} ms/MiB`,
          `${large.size.label} ms/MiB`,
          'ratio',
          'verdict',
          'ratio from planner rows',
        ],
        rows,
      },
    ],
    targets,
  };
}
