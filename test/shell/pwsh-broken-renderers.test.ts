// SPEC §14 "must be shown": a deliberately broken Windows renderer fails the pwsh checks. Each
// row faces the same parse and run checks as the real contract, on the matrix plus the probes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPwsh } from '../support/pwsh.js';
import { installRecorders, parseMismatches, runMismatches, STOP_PAYLOAD } from './pwsh-checks.js';
import { MATRIX, type Renderer, renderWindows } from './windows-cases.js';
import { PARSE_PROBES, RUN_PROBES } from './windows-probes.js';
import { BROKEN_RENDERERS } from './windows-unguarded.js';

let scratch: string | undefined;
const scratchDir = () => {
  if (scratch === undefined) throw new Error('the scratch directory was not created');
  return scratch;
};
const root = () => path.join(scratchDir(), 'drive');
const payloadFile = () => path.join(scratchDir(), 'payload.json');

const PARSE_CASES = [...MATRIX, ...PARSE_PROBES];
const RUN_CASES = [...MATRIX, ...RUN_PROBES];

describeWithPwsh('broken Windows renderers under the pwsh checks', (pwsh) => {
  /** Every parse and Standard-run mismatch the checks find for `render`. */
  const mismatches = async (render: Renderer) => [
    ...(await parseMismatches(pwsh(), render, PARSE_CASES)),
    ...(await runMismatches(pwsh(), render, RUN_CASES, 'Standard', root(), payloadFile())),
  ];

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-pwsh-broken-'));
    fs.mkdirSync(root());
    fs.writeFileSync(payloadFile(), STOP_PAYLOAD);
    installRecorders(root(), [
      ...MATRIX.map((entry) => entry.executable),
      ...RUN_PROBES.map((probe) => probe.decoy ?? probe.executable),
    ]);
    await pwsh().mapDrives(root());
  });

  afterAll(() => {
    if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('finds nothing wrong with the real contract on the same cases, or the rows below prove nothing', async () => {
    expect(await mismatches(renderWindows)).toEqual([]);
  });

  it.each(BROKEN_RENDERERS.map((broken) => ({ ...broken })))(
    'catches a renderer with $label, or that breakage could ship',
    async ({ render }) => {
      expect(await mismatches(render)).not.toEqual([]);
    },
  );
});
