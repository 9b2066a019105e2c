import { expect, it } from 'vitest';
import { describeWithPwsh } from '../support/pwsh.js';
import { parseMismatches, runMismatches, useRecorderDrive } from './pwsh-checks.js';
import { MATRIX, type Renderer, renderWindows } from './windows-cases.js';
import { PARSE_PROBES, RUN_PROBES } from './windows-probes.js';
import { BROKEN_RENDERERS } from './windows-unguarded.js';

const PARSE_CASES = [...MATRIX, ...PARSE_PROBES];
const RUN_CASES = [...MATRIX, ...RUN_PROBES];

describeWithPwsh('broken Windows renderers under the pwsh checks', (pwsh) => {
  const { root, payloadFile } = useRecorderDrive(pwsh, 'cursorhooks-pwsh-broken-');
  /** Every parse and Standard-run mismatch the checks find for `render`. */
  const mismatches = async (render: Renderer) => [
    ...(await parseMismatches(pwsh(), render, PARSE_CASES)),
    ...(await runMismatches(pwsh(), render, RUN_CASES, 'Standard', root(), payloadFile())),
  ];

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
