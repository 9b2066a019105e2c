// Windows renderings run by pwsh on Linux against a recorder: every drive letter is mapped onto
// one directory with a PSDrive, so `X:\a\b.exe` resolves through PowerShell's own command lookup
// to a recorder at `<root>/a/b.exe`. Under both native argument passings the recorder must be
// the file started, with exactly the four argument tokens, also inside Cursor's wrapper with the
// stop payload on stdin. What this cannot show: Windows' own process creation (CreateProcess
// and the target's argv parsing), which a Linux pwsh never runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { UnsupportedError } from '../../src/index.js';
import { describeWithPwsh } from '../support/pwsh.js';
import {
  installRecorders,
  parseMismatches,
  runMismatches,
  STOP_PAYLOAD,
  underRoot,
} from './pwsh-checks.js';
import { expectRefusal } from './refusal.js';
import { MATRIX, pathCaseArb, renderWindows, stopTokens } from './windows-cases.js';
import { PARSE_PROBES, RUN_PROBES } from './windows-probes.js';
import { BROKEN_RENDERERS, renderSkipping } from './windows-unguarded.js';

// A fixed sample of random accepted paths (runs cost a process each, parses do not).
const RANDOM = fc.sample(pathCaseArb, { numRuns: 150, seed: 20261203 });
const CASES = [...MATRIX, ...RANDOM];

describe('the Windows run probes', () => {
  it.each(RUN_PROBES.map((probe) => ({ ...probe })))(
    'refuses $label with $reason, or PowerShell gets to run it',
    ({ executable, selector, reason }) => {
      expectRefusal(
        () => renderWindows(stopTokens(executable, selector)),
        UnsupportedError,
        reason,
      );
    },
  );
});

describeWithPwsh('Windows renderings run under pwsh', (pwsh) => {
  let root = '';
  let payload = '';
  beforeAll(async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-pwsh-run-'));
    root = path.join(scratch, 'drive');
    payload = path.join(scratch, 'payload.json');
    fs.writeFileSync(payload, STOP_PAYLOAD);
    installRecorders(root, [
      ...CASES.map((c) => c.executable),
      ...RUN_PROBES.flatMap((probe) => (probe.decoy === undefined ? [] : [probe.decoy])),
      // The executable every selector probe runs, so that only the argv can differ.
      ...RUN_PROBES.filter((probe) => probe.decoy === undefined).map((probe) => probe.executable),
    ]);
    await pwsh().mapDrives(root);
  }, 60_000);

  it.each(['Standard', 'Legacy'] as const)(
    'starts the recorder with exactly the planned tokens under %s argument passing, alone and in the wrapper, for the matrix and 150 random paths (red: PowerShell runs another file or splits, joins or drops an argument)',
    async (mode) => {
      expect(await runMismatches(pwsh(), renderWindows, CASES, mode, root, payload)).toEqual([]);
    },
    120_000,
  );

  // The other way round: each refusal guards against a real misreading of the run.
  it.each(RUN_PROBES.map((probe) => ({ ...probe })))(
    'misruns an unguarded rendering of $label ($misreading), or the refusal guards nothing',
    async (probe) => {
      if (probe.decoy !== undefined) expect(fs.existsSync(underRoot(root, probe.decoy))).toBe(true);
      const mismatches = await runMismatches(
        pwsh(),
        renderSkipping(probe.skip),
        [probe],
        probe.mode,
        root,
        payload,
      );
      expect(mismatches).not.toEqual([]);
    },
  );

  // A broken renderer of the kind public installers ship must fail the same checks the real
  // contract passes: parsing over the matrix and probes, or running over the run probes.
  it.each(BROKEN_RENDERERS.map((broken) => ({ ...broken })))(
    'catches a renderer with $label (red: the pwsh checks pass a broken renderer)',
    async ({ render }) => {
      const parsed = await parseMismatches(pwsh(), render, [...MATRIX, ...PARSE_PROBES]);
      const ran = await runMismatches(pwsh(), render, RUN_PROBES, 'Standard', root, payload);
      expect([...parsed, ...ran]).not.toEqual([]);
    },
  );
});
