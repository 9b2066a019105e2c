// The Windows half of qualifying, as far as a Linux machine with pwsh can show it: the probe's
// command for the powershell-stop family (its adversarial probe directory included) run the way
// Cursor's Windows build runs hooks, under pwsh in its wrapper, reaches a host recorder built on
// recordProbeInvocation byte for byte, and finish's comparison agrees. Not shown here: a probe
// started on a Windows host (startQualification refuses the family elsewhere) and the real
// Windows argv[0]; the drives are mapped onto a scratch directory, and the host recorder is a
// wrapper that passes on the Windows path as its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compareArgv } from '../../src/node/qualify/argv-report.js';
import { PROBE_DIRECTORY } from '../../src/node/qualify/layout.js';
import { probeContract } from '../../src/node/qualify/probe-contract.js';
import { bindingBytes, readRecordings } from '../../src/node/qualify/recording.js';
import { grammarFamily } from '../../src/shell/families.js';
import { stopArgv } from '../../src/shell/stop-invocation.js';
import { buildChild } from '../node/child/spawn.js';
import { type ArgumentPassing, describeWithPwsh } from '../support/pwsh.js';
import { fireStop } from '../support/simulated-cursor.js';
import { underRoot } from './pwsh-checks.js';

const RECORDER = 'X:\\host tools\\acme recorder.exe';
const BINDING = `X:\\state\\${PROBE_DIRECTORY.windows}\\binding.json`;
const ARGV = stopArgv(RECORDER, BINDING);

describeWithPwsh("the Windows probe under pwsh in Cursor's wrapper", (pwsh) => {
  let dir = '';
  let child: Awaited<ReturnType<typeof buildChild>>;
  const root = () => path.join(dir, 'drive');
  const recordings = () => path.join(dir, 'recordings');
  const hooksFile = () => path.join(root(), 'home', '.cursor', 'hooks.json');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-qualify-windows-'));
    child = await buildChild('recorder');
    fs.mkdirSync(path.dirname(hooksFile()), { recursive: true });
    fs.mkdirSync(recordings());
    // On Windows the binding token names the probe's binding file. Here that token is one file
    // name, backslashes and all, in the directory the recorder's wrapper starts it from.
    const lookup = path.join(dir, 'lookup');
    fs.mkdirSync(lookup);
    fs.writeFileSync(path.join(lookup, BINDING), bindingBytes(recordings()));
    const wrapper = underRoot(root(), RECORDER);
    fs.mkdirSync(path.dirname(wrapper), { recursive: true });
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh\ncd '${lookup}' && exec '${process.execPath}' '${child.script}' '${RECORDER}' "$@"\n`,
      { mode: 0o755 },
    );
    const family = grammarFamily('powershell-stop');
    if (family === undefined) throw new Error('no powershell-stop family');
    const command = probeContract(family, []).render(ARGV);
    fs.writeFileSync(hooksFile(), JSON.stringify({ version: 1, hooks: { stop: [{ command }] } }));
    await pwsh().mapDrives(root());
  });
  afterAll(() => {
    child?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const fire = (mode: ArgumentPassing, misbehave: 'none' | 'collapse-quotes') =>
    fireStop({
      hooksFile: hooksFile(),
      launcher: { kind: 'pwsh', pwsh: pwsh(), mode },
      misbehave,
      cursorVersion: '3.24.7',
    });

  it.each(['Standard', 'Legacy'] as const)(
    'under %s argument passing the host recorder receives the probe argv byte for byte and finish would match it (red: the Windows probe path breaks PowerShell, or the recorder protocol loses a byte)',
    async (mode) => {
      fs.rmSync(recordings(), { recursive: true, force: true });
      fs.mkdirSync(recordings());
      const [hook] = await fire(mode, 'none');
      expect(hook?.stdout, hook?.stderr).toBe('{}');
      const [recording, ...more] = await readRecordings(recordings());
      expect(more).toEqual([]);
      expect(recording?.cursorVersionEnv).toBe('3.24.7');
      expect(compareArgv('r', ARGV, recording?.argv ?? [], true).matched).toBe(true);
      expect(JSON.parse(new TextDecoder().decode(recording?.stdin))).toMatchObject({
        hook_event_name: 'stop',
      });
    },
  );

  it('a launcher that collapses the doubled apostrophe leaves the host recorder without its binding: nothing is recorded, so finish would say probe-not-fired (red: a mangled binding is recorded as a match)', async () => {
    fs.rmSync(recordings(), { recursive: true, force: true });
    fs.mkdirSync(recordings());
    await fire('Legacy', 'collapse-quotes');
    expect(await readRecordings(recordings())).toEqual([]);
  });
});
