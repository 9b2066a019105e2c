// SPEC §14 run: Windows renderings run by pwsh on Linux against a recorder. Every drive letter
// is a PSDrive onto one scratch root, so `X:\dir\agent.exe` goes through PowerShell's own path
// resolution and starts `<root>/dir/agent.exe`. Standard argument passing is pwsh 7's; Legacy is
// the closest Linux model of Windows PowerShell 5.1, which Cursor's Windows client starts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { UnsupportedError } from '../../src/index.js';
import { decodeStrict, fcRuns, propertyTimeout } from '../support/common.js';
import { type ArgumentPassing, describeWithPwsh } from '../support/pwsh.js';
import {
  installRecorders,
  runMismatches,
  STOP_PAYLOAD,
  underRoot,
  useRecorderDrive,
} from './pwsh-checks.js';
import { expectRefusal } from './refusal.js';
import {
  cursorWrapper,
  MATRIX,
  pathCaseArb,
  renderWindows,
  singleQuoted,
  stopTokens,
} from './windows-cases.js';
import { RUN_PROBES } from './windows-probes.js';
import { renderSkipping } from './windows-unguarded.js';

const MODES: readonly ArgumentPassing[] = ['Standard', 'Legacy'];
const BATCH = 50;
// One batch of 50 per mode: each case costs two process starts, so far fewer than the parse suite.
const BATCHES = fcRuns(1);

describeWithPwsh('Windows renderings run by pwsh against a recorder', (pwsh) => {
  // Files a wildcard reading of the matrix's `C:\[ab]\[copy].json` selector would match.
  const drive = useRecorderDrive(pwsh, 'cursorhooks-pwsh-run-', ['C:\\a\\c.json', 'C:\\b\\y.json']);
  const { root, payloadFile } = drive;
  const scratchDir = drive.scratch;

  it('resolves the drive mapping to the recorder, or every run below tests a missing file', async () => {
    const [result] = await pwsh().run('Standard', ["& 'X:\\w\\agent.exe' 'a b'"]);
    expect(result).toEqual({
      errors: [],
      output: [],
      exit: 0,
      self: underRoot(root(), 'X:\\w\\agent.exe'),
      argv: ['a b'],
      stdin: '',
    });
  });

  it.each(MODES)(
    'runs every matrix rendering under %s argument passing, alone and in the wrapper with the payload on stdin, and the recorder sees exactly the tokens, or an accepted path reaches the agent changed',
    async (mode) => {
      expect(
        await runMismatches(pwsh(), renderWindows, MATRIX, mode, root(), payloadFile()),
      ).toEqual([]);
    },
  );

  it.each(MODES)(
    `runs ${BATCH * BATCHES} random accepted renderings under %s the same way, or some accepted path reaches the agent changed`,
    async (mode) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathCaseArb, { minLength: BATCH, maxLength: BATCH }),
          async (cases) => {
            installRecorders(
              root(),
              cases.map((entry) => entry.executable),
            );
            expect(
              await runMismatches(pwsh(), renderWindows, cases, mode, root(), payloadFile()),
            ).toEqual([]);
          },
        ),
        { numRuns: BATCHES },
      );
    },
    propertyTimeout(BATCHES, 10_000),
  );

  // The other way round: each refusal here guards against PowerShell itself misreading the path.
  it.each(RUN_PROBES.map((probe) => ({ ...probe })))(
    'refuses $label ($reason), and without that refusal $misreading, or the guard is not needed',
    async (probe) => {
      expectRefusal(
        () => renderWindows(stopTokens(probe.executable, probe.selector)),
        UnsupportedError,
        probe.reason,
      );
      const unguarded = renderSkipping(probe.skip);
      expect(
        await runMismatches(pwsh(), unguarded, [probe], probe.mode, root(), payloadFile()),
      ).toHaveLength(2);
    },
  );

  // The session runs sources through ScriptBlock.Create; this runs one the way Cursor does, as
  // the -Command of a fresh PowerShell, so the two paths cannot differ unnoticed.
  it.each(MODES)(
    'runs the wrapper as -Command of a fresh pwsh under %s with the recorder seeing the tokens and the payload, or the long-lived session is not a faithful model',
    (mode) => {
      const { executable, selector } = MATRIX.find(
        (entry) => entry.label === 'all of it together',
      ) ??
        MATRIX[0] ?? { executable: '', selector: '' };
      const tokens = stopTokens(executable, selector);
      const record = fs.mkdtempSync(path.join(scratchDir(), 'fresh-'));
      const setup = [
        `New-PSDrive -Name ${executable[0]} -PSProvider FileSystem -Root ${singleQuoted(root())} | Out-Null`,
        `$PSNativeCommandArgumentPassing = '${mode}'`,
      ].join('; ');
      const command = `${setup}; ${cursorWrapper(singleQuoted(payloadFile()), renderWindows(tokens))}`;
      const result = spawnSync(
        pwsh().file,
        ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', command],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            ...process.env,
            POWERSHELL_TELEMETRY_OPTOUT: '1',
            POWERSHELL_UPDATECHECK: 'Off',
            NO_COLOR: '1',
            CURSORHOOKS_RECORD_DIR: record,
          },
          timeout: 30_000,
        },
      );
      const read = (name: string) => decodeStrict(fs.readFileSync(path.join(record, name)));
      expect({ status: result.status, stderr: result.stderr.toString('utf8') }).toEqual({
        status: 0,
        stderr: '',
      });
      expect({ self: read('self'), argv: read('argv'), stdin: read('stdin') }).toEqual({
        self: underRoot(root(), executable),
        argv: tokens
          .slice(1)
          .map((token) => `${token}\0`)
          .join(''),
        stdin: `${STOP_PAYLOAD}\n`,
      });
    },
  );
});
