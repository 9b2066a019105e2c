// Hostile ~4 MiB inputs refused by `plan` (Install), each against JSON.parse.
//
// The basis of each ratio is JSON.parse on the same bytes when JSON.parse accepts them, and
// JSON.parse on the realistic 4 MiB document when it refuses them too (its time to fail says
// little about what parsing 4 MiB costs). Both ratios are printed; the table says which one
// the target uses. Target ≤ 0.5× for the refusals the limits catch (depth, nodes, size); the
// syntax and duplicate-key refusals need the full parse and are only reported.

import { plan } from '../../src/index.js';
import {
  controlCharString,
  deepBrackets,
  nearDuplicateKeys,
  oversizedString,
  tooManyNodes,
} from './documents.js';
import { get, type Job, measure, type Settings } from './measure.js';
import { type GroupReport, ms, type Target, times, verdict } from './report.js';
import { installRequest } from './requests.js';

const SETTINGS: Settings = { time: 1000, iterations: 15, warmupTime: 200, warmupIterations: 3 };
/** JSON.parse takes over a second to fail on 4 MiB of `[`: a few runs tell enough. */
const SLOW: Partial<Settings> = { time: 0, iterations: 3, warmupTime: 0, warmupIterations: 1 };
const GROUP = 'hostile';
const BASELINE = 'JSON.parse realistic 4 MiB';

interface Hostile {
  readonly label: string;
  readonly bytes: Uint8Array;
  readonly reason: string;
  /** Caught by a limit (budget pass or length check): the ≤ 0.5× target applies. */
  readonly limit: boolean;
}

/** JSON.parse's verdict; a refusal is a value here, so both outcomes can be timed. */
function jsonParse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    return error;
  }
}

const accepts = (bytes: Uint8Array) => !(jsonParse(bytes) instanceof Error);

export function hostile(realistic: Uint8Array): GroupReport {
  const inputs: readonly Hostile[] = [
    {
      label: 'deep: 4 MiB of [',
      bytes: deepBrackets(),
      reason: 'document-too-deep',
      limit: true,
    },
    {
      label: 'nodes: 65,537 strings-heavy',
      bytes: tooManyNodes(),
      reason: 'document-too-many-nodes',
      limit: true,
    },
    {
      label: 'size: one string, 4 MiB + 1',
      bytes: oversizedString(),
      reason: 'document-too-large',
      limit: true,
    },
    {
      label: 'syntax: 4 MiB string, raw U+0001 at end',
      bytes: controlCharString(),
      reason: 'json-syntax',
      limit: false,
    },
    {
      label: 'duplicate: 32,767 near-duplicate keys, last via \\u0068',
      bytes: nearDuplicateKeys(),
      reason: 'json-duplicate-key',
      limit: false,
    },
  ];
  const accepted = new Map(inputs.map((input) => [input.label, accepts(input.bytes)]));
  // Before timing: each input is refused for exactly its reason.
  for (const input of inputs) {
    const reason = plan(installRequest(input.bytes)).error?.reason;
    if (reason !== input.reason) {
      throw new Error(`${input.label}: expected ${input.reason}, plan gave ${String(reason)}`);
    }
  }

  const jobs: Job[] = [{ name: BASELINE, fn: () => jsonParse(realistic) }];
  for (const input of inputs) {
    jobs.push({
      name: `${input.label}: JSON.parse`,
      fn: () => jsonParse(input.bytes),
      ...(accepted.get(input.label) ? {} : { settings: SLOW }),
    });
    const request = installRequest(input.bytes);
    jobs.push({
      name: `${input.label}: plan`,
      fn: () => {
        const result = plan(request);
        if (result.error?.reason !== input.reason) throw new Error(`${input.label}: not refused`);
        return result;
      },
    });
  }
  const results = measure(jobs, SETTINGS);
  const baseline = get(results, BASELINE).median;
  const targets: Target[] = [];
  const rows = inputs.map((input) => {
    const planned = get(results, `${input.label}: plan`);
    const same = get(results, `${input.label}: JSON.parse`).median;
    const ok = accepted.get(input.label) === true;
    const vsSame = planned.median / same;
    const vsRealistic = planned.median / baseline;
    const ratio = ok ? vsSame : vsRealistic;
    const basis = ok ? 'same bytes' : 'realistic 4 MiB';
    const pass = input.limit ? ratio <= 0.5 : undefined;
    targets.push({
      group: GROUP,
      name: `${input.label} → ${input.reason}`,
      goal: input.limit ? `≤ 0.5× JSON.parse (${basis})` : `report (${basis})`,
      measured: `${times(ratio)} (${ms(planned.median)} vs ${ms(ok ? same : baseline)} ms)`,
      pass,
    });
    return [
      input.label,
      input.bytes.length.toLocaleString('en'),
      input.reason,
      ms(planned.median),
      `${ms(same)} (${ok ? 'accepts' : 'throws'})`,
      times(vsSame),
      times(vsRealistic),
      basis,
      input.limit ? '≤ 0.5×' : 'report',
      verdict(pass),
    ];
  });
  return {
    tables: [
      {
        title: '3. Hostile ~4 MiB inputs: plan (Install) refusals vs JSON.parse',
        notes: [
          `baseline: ${BASELINE} = ${ms(baseline)} ms (${realistic.length.toLocaleString('en')} bytes)`,
          'basis: JSON.parse on the same bytes when it accepts them; on the realistic 4 MiB document when it throws',
          'JSON.parse ms: on the same bytes, and whether it accepts them (JSON.parse allows duplicate keys)',
        ],
        columns: [
          'input',
          'bytes',
          'plan refuses with',
          'plan ms',
          'JSON.parse same bytes ms',
          '× same',
          '× realistic',
          'basis',
          'target',
          'verdict',
        ],
        rows,
      },
    ],
    targets,
  };
}
