// status carries what doctor finds in the hook sources it knows of (the user file, the
// enterprise file, Claude Code's user settings): a count, the worst severity, and a pointer at
// doctor when something voids our entry or runs it twice.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStatus } from '../../src/node/status/status.js';
import { installedWorkspace, tempDir, type Where } from './support.js';

const FOREIGN = '{\n  "version": 1,\n  "hooks": { "stop": [{ "command": "foreign" }] }\n}\n';

/** status over `where`, its other sources in a home of the test's own and no enterprise file. */
const statusIn = (where: Where, home: string) =>
  readStatus({
    hooksFile: where.hooks,
    ledger: where.ledger,
    sources: { home, enterpriseFile: null },
  });

describe("status's summary of doctor", () => {
  // Red: status reports findings for a clean installed file, or points at doctor anyway.
  it('is zero findings and no pointer for a clean installed file', async () => {
    const where = await installedWorkspace(FOREIGN);
    const status = await statusIn(where, tempDir());
    expect(status.doctor).toEqual({ findings: 0, worst: null, pointsAtDoctor: false });
    expect(status.nextStep.code).toBe('none');
  });

  // Red: a foreign event name that makes a cursor-agent build ignore the whole file goes unseen.
  it('counts a voiding foreign event in the user file and points at doctor', async () => {
    const where = await installedWorkspace(FOREIGN);
    const hooks = JSON.parse(readFileSync(where.hooks, 'utf8'));
    hooks.hooks.onStopp = [{ command: 'typo' }];
    writeFileSync(where.hooks, `${JSON.stringify(hooks, null, 2)}\n`);
    const status = await statusIn(where, tempDir());
    expect(status.doctor).toMatchObject({ worst: 'voids-file', pointsAtDoctor: true });
    expect(status.doctor.findings).toBeGreaterThanOrEqual(1);
  });

  // Red: our command pasted into ~/.claude/settings.json (Claude's nested Stop shape) fires
  // twice and status still says all is well without a pointer.
  it("points at doctor when our entry also runs from Claude Code's user settings", async () => {
    const where = await installedWorkspace(FOREIGN);
    const command = JSON.parse(readFileSync(where.hooks, 'utf8')).hooks.stop[1].command;
    const home = tempDir();
    mkdirSync(join(home, '.claude'));
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } }),
    );
    const status = await statusIn(where, home);
    expect(status.doctor).toEqual({ findings: 1, worst: 'fires-twice', pointsAtDoctor: true });
    // Our entry is still in place: the next step is unchanged, the pointer is beside it.
    expect(status.nextStep.code).toBe('none');
  });

  // Red: a foreign duplicate (not ours) makes status point at doctor as if ours were at risk.
  it('counts a foreign command in two sources without pointing at doctor', async () => {
    const where = await installedWorkspace(FOREIGN);
    const home = tempDir();
    mkdirSync(join(home, '.claude'));
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'foreign' }] }] } }),
    );
    const status = await statusIn(where, home);
    expect(status.doctor).toEqual({ findings: 1, worst: 'fires-twice', pointsAtDoctor: false });
  });
});
