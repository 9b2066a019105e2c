// simulate-stop for the Windows family: pwsh in the wrapper Cursor's Windows client is reported
// to use, the payload in a private file. A real run needs Windows paths pwsh can resolve in a
// fresh process, which Linux cannot give; these tests check the launch and the refusal.
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan, WindowsPowerShellStop20261001 } from '../../src/index.js';
import { EMPTY_RECORD, updateLedgerRecord } from '../../src/node/ledger/ledger.js';
import { installedEntry, windowsLaunch } from '../../src/node/simulate/installed-entry.js';
import { simulateStop } from '../../src/node/simulate/simulate-stop.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { defaultPlanner } from '../../src/planner/default.js';
import { cursorWrapper, singleQuoted } from '../shell/windows-cases.js';
import { tempDir } from './support.js';

const SPEC = { executable: 'C:\\Agent Tools\\notify.exe', selector: "C:\\Agent Tools\\it's.json" };

/** A hook file and ledger holding an owned Windows-family entry (planned as the kit plans it). */
async function windowsHome(): Promise<{ hooksFile: string; ledger: string }> {
  const dir = tempDir();
  mkdirSync(join(dir, '.cursor'));
  const hooksFile = join(dir, '.cursor', 'hooks.json');
  const ledger = join(dir, 'ledger.json');
  const planned = plan({
    operation: 'install',
    specs: [SPEC],
    shell: WindowsPowerShellStop20261001,
    executableVerified: true,
  });
  expect(planned.error).toBeUndefined();
  writeFileSync(hooksFile, planned.desired);
  const receipt = planned.receipt?.toJSON() ?? null;
  await updateLedgerRecord(ledger, realpathSync(hooksFile), () => ({
    ...EMPTY_RECORD,
    generation: 1,
    receipt,
  }));
  return { hooksFile, ledger };
}

const payloadDirs = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('cursorhooks-simulate-'));

describe('simulate-stop, Windows family', () => {
  it("runs the entry under pwsh in Cursor's wrapper, reading the payload file, in the hook file's directory (red: the command is piped bare, or the wrapper differs from the one the PowerShell tests check)", async () => {
    const { hooksFile, ledger } = await windowsHome();
    const entry = await installedEntry(hooksFile, ledger, defaultPlanner(), nodeFs);
    expect(entry.platform).toBe('windows');
    const payloadFile = "/tmp/it's/payload.json";
    const launch = windowsLaunch(entry, '2026.10.01', '/opt/pwsh', payloadFile, 'stop');
    expect(launch.file).toBe('/opt/pwsh');
    expect(launch.args).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      cursorWrapper(singleQuoted(payloadFile), entry.command),
    ]);
    expect(entry.command).toBe(
      "& 'C:\\Agent Tools\\notify.exe' 'cursor-event' 'stop' '--binding' 'C:\\Agent Tools\\it''s.json'",
    );
    expect(launch.cwd).toBe(join(hooksFile, '..'));
    expect(launch.env.CURSOR_VERSION).toBe('2026.10.01');
  });

  it('refuses simulate-shell-missing when pwsh is not installed, and leaves no payload file behind (red: a launch failure is thrown raw, or the payload stays in the temporary directory)', async () => {
    const { hooksFile, ledger } = await windowsHome();
    const before = payloadDirs();
    await expect(
      simulateStop({ hooksFile, ledger, pwsh: join(tempDir(), 'no-pwsh') }),
    ).rejects.toMatchObject({ reason: 'simulate-shell-missing' });
    expect(payloadDirs()).toEqual(before);
  });
});
