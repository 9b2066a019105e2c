// The user's "off" through the kit: disable takes the entry out and keeps it out (install,
// update and repair refuse disabled-by-user, status says disabled with nothing to do) until
// enable puts exactly the recorded spec back.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { decodeLedger, encodeLedger } from '../../src/node/ledger/ledger.js';
import { readStatus } from '../../src/node/status/status.js';
import { disableHook, enableHook } from '../../src/node/toggle.js';
import { OTHER_SPEC, SPEC } from '../planner/support.js';
import { allChecksPassed, installedWorkspace, operate, recordOf, type Where } from './support.js';

const FOREIGN = '{\n  "version": 1,\n  "hooks": { "stop": [{ "command": "foreign" }] }\n}\n';

const toggle = (where: Where) => ({
  hooksFile: where.hooks,
  ledger: where.ledger,
  checkHostPaths: allChecksPassed,
});

describe('disable and enable', () => {
  it('disable removes the entry and keeps it off; install, update and repair refuse; enable puts it back (red: a reinstall undoes the user\'s "off", or enable installs another spec)', async () => {
    const where = await installedWorkspace(FOREIGN);
    const installed = readFileSync(where.hooks, 'utf8');
    const off = await disableHook(toggle(where));
    expect(off.status).toBe('done');
    const after = JSON.parse(readFileSync(where.hooks, 'utf8'));
    expect(after.hooks.stop).toEqual([{ command: 'foreign' }]);
    expect(readFileSync(where.hooks, 'utf8')).not.toContain(SPEC.selector);
    const record = await recordOf(where);
    expect(record.receipt).toBeNull();
    expect(record.disabled?.receipt.spec).toEqual(SPEC);
    for (const [operation, spec] of [
      [Operation.Install, SPEC],
      [Operation.Update, OTHER_SPEC],
      [Operation.Repair, SPEC],
    ] as const) {
      const refused = await operate(where, operation, { spec });
      expect([operation, refused.status, refused.error?.reason]).toEqual([
        operation,
        'refused',
        'disabled-by-user',
      ]);
    }
    const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger });
    expect(status.owned.state).toBe('disabled');
    expect(status.nextStep).toMatchObject({ code: 'none', command: null });
    expect(status.nextStep.sentence).toContain('enable');
    expect((await disableHook(toggle(where))).status).toBe('no-op');
    const on = await enableHook(toggle(where));
    expect(on.status).toBe('done');
    expect(on.receipt?.spec).toEqual(SPEC);
    expect(readFileSync(where.hooks, 'utf8')).toBe(installed);
    expect((await recordOf(where)).disabled).toBeNull();
    expect((await operate(where, Operation.Install)).status).toBe('no-op');
    expect((await enableHook(toggle(where))).status).toBe('no-op');
  });

  // Red: the library's outcome says only remove/install, so a host cannot tell a disable from a
  // remove without remembering what it called (the CLI's JSON already names the command).
  it('names the command each outcome ran, beside its operation', async () => {
    const where = await installedWorkspace(FOREIGN);
    const off = await disableHook(toggle(where));
    expect([off.command, off.operation]).toEqual(['disable', Operation.Remove]);
    const on = await enableHook(toggle(where));
    expect([on.command, on.operation]).toEqual(['enable', Operation.Install]);
    const again = await operate(where, Operation.Install);
    expect([again.command, again.operation]).toEqual([Operation.Install, Operation.Install]);
  });

  it('records the "off" without touching the file when the entry was deleted by hand or removed before (red: disable refuses owner-absent, leaving the user no way to say "keep it off")', async () => {
    for (const before of ['deleted-by-hand', 'removed'] as const) {
      const where = await installedWorkspace(FOREIGN);
      if (before === 'removed')
        expect((await operate(where, Operation.Remove)).status).toBe('done');
      else writeFileSync(where.hooks, FOREIGN);
      const bytes = readFileSync(where.hooks, 'utf8');
      const off = await disableHook(toggle(where));
      expect([before, off.status]).toEqual([before, 'done']);
      expect(readFileSync(where.hooks, 'utf8')).toBe(bytes);
      expect((await recordOf(where)).disabled?.receipt.spec).toEqual(SPEC);
      expect((await operate(where, Operation.Install)).error?.reason).toBe('disabled-by-user');
    }
  });

  it('offers disable beside repair when the user deleted the entry by hand (red: the user who meant it is only told to put it back)', async () => {
    const where = await installedWorkspace(FOREIGN);
    writeFileSync(where.hooks, FOREIGN);
    const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger });
    expect(status.nextStep.code).toBe('repair');
    expect(status.nextStep.sentence).toContain('disable');
  });

  it('refuses enable when nothing was turned off (red: enable installs from nothing, or passes silently)', async () => {
    const where = await installedWorkspace(FOREIGN);
    expect((await operate(where, Operation.Remove)).status).toBe('done');
    const refused = await enableHook(toggle(where));
    expect([refused.status, refused.error?.reason]).toEqual(['refused', 'not-disabled']);
  });

  it('keeps the "off" in the ledger, strictly decoded (red: a damaged record is trusted, or the field is lost on a rewrite)', async () => {
    const where = await installedWorkspace(FOREIGN);
    await disableHook(toggle(where));
    const bytes = readFileSync(where.ledger);
    const records = decodeLedger(bytes);
    expect(encodeLedger(records)).toEqual(new Uint8Array(bytes));
    const text = bytes.toString('utf8');
    for (const damaged of [
      text.replace('"disabled": {', '"disabled": { "x": 1,'),
      text.replace(/"disabled": \{\n\s+"generation": \d+/, '"disabled": {\n "generation": -1'),
      text.replace(/("disabled": \{[^}]*"receipt": )\{/, '$1null, "y": {'),
    ]) {
      expect(damaged).not.toBe(text);
      expect(() => decodeLedger(new TextEncoder().encode(damaged))).toThrow(/ledger/);
    }
  });
});
