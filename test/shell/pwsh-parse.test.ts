// SPEC §14 parse: Windows renderings read by PowerShell's own parser ([Parser]::ParseInput in
// one long-lived pwsh), alone and inside the wrapper Cursor's Windows client runs them in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../src/index.js';
import { fcRuns, propertyTimeout } from '../support/common.js';
import { describeWithPwsh } from '../support/pwsh.js';
import { parseMismatches } from './pwsh-checks.js';
import { expectRefusal } from './refusal.js';
import { MATRIX, pathCaseArb, renderWindows, stopTokens } from './windows-cases.js';
import { PARSE_PROBES } from './windows-probes.js';
import { renderSkipping } from './windows-unguarded.js';

const BATCH = 500;
// 20 batches of 500: at least 10,000 random pairs, each parsed alone and in the wrapper.
const BATCHES = fcRuns(20);

describe('the Windows parse matrix', () => {
  it.each(MATRIX.map((entry) => ({ ...entry })))(
    'is accepted by the contract with $label, or the pwsh checks skip it as refused and prove nothing',
    ({ executable, selector }) => {
      expect(() => renderWindows(stopTokens(executable, selector))).not.toThrow();
    },
  );

  it.each(PARSE_PROBES.map((probe) => ({ ...probe })))(
    'refuses $label with $reason, or PowerShell gets to read it',
    ({ executable, selector, reason }) => {
      expectRefusal(
        () => renderWindows(stopTokens(executable, selector)),
        UnsupportedError,
        reason,
      );
    },
  );
});

describeWithPwsh("Windows renderings under PowerShell's parser", (pwsh) => {
  it('reads every matrix rendering, alone and in the wrapper, as one & command of the five single-quoted tokens, or PowerShell runs another command than was planned', async () => {
    expect(await parseMismatches(pwsh(), renderWindows, MATRIX)).toEqual([]);
  });

  it(
    `reads ${BATCH * BATCHES} random accepted renderings the same way, or some accepted path breaks the quoting`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathCaseArb, { minLength: BATCH, maxLength: BATCH }),
          async (cases) => {
            expect(await parseMismatches(pwsh(), renderWindows, cases)).toEqual([]);
          },
        ),
        { numRuns: BATCHES },
      );
    },
    propertyTimeout(BATCHES, 1_000),
  );

  // The other way round: with the refusal skipped, the parser reads another command, where the
  // row says so. Rows marked literal document refusals PowerShell itself does not need.
  it.each(PARSE_PROBES.map((probe) => ({ ...probe })))(
    'reads an unguarded rendering of $label as another command exactly when the row says so (misread: $misread), or the reason for the refusal is wrong',
    async (probe) => {
      const mismatches = await parseMismatches(pwsh(), renderSkipping(probe.skip), [probe]);
      if (probe.misread) expect(mismatches).not.toEqual([]);
      else expect(mismatches).toEqual([]);
    },
  );
});
