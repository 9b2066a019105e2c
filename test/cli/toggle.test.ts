// disable and enable from the command line: the user's "off" holds against install, update and
// repair, status reports it with nothing to do, and enable brings the very same entry back.
import { describe, expect, it } from 'vitest';
import {
  fileCli,
  files,
  home,
  install,
  readHooks,
  result,
  specArgs,
  writeHooks,
} from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

describe('cursorhooks disable / enable', () => {
  it('turns the entry off and keeps it off until enable (red: install after disable puts it back, or status asks for a repair)', async () => {
    const where = home();
    writeHooks(where);
    result(await install(where), 0);
    const installed = readHooks(where);
    const off = result(await fileCli('disable', where), 0);
    expectSchema('operation-result', off);
    // red: the JSON says only "remove", so a host cannot tell a disable from a remove
    expect(off).toMatchObject({ status: 'done', command: 'disable', operation: 'remove' });
    expect(readHooks(where)).not.toContain(where.spec.selector);
    for (const [command, spec] of [
      ['install', where.spec],
      ['update', where.otherSpec],
      ['repair', where.spec],
    ] as const) {
      const refused = result(await fileCli(command, where, ...specArgs(spec)), 1);
      expect([command, refused.error?.reason]).toEqual([command, 'disabled-by-user']);
      expect(refused).toMatchObject({ command, operation: command });
    }
    const status = JSON.parse((await fileCli('status', where)).stdout);
    expectSchema('status-result', status);
    expect(status.owned.state).toBe('disabled');
    expect(status.nextStep).toMatchObject({ code: 'none', command: null });
    expect(status.nextStep.sentence).toContain('enable');
    const on = result(await fileCli('enable', where), 0);
    expectSchema('operation-result', on);
    expect(on).toMatchObject({ status: 'done', command: 'enable', operation: 'install' });
    expect(readHooks(where)).toBe(installed);
    result(await install(where), 0);
  });

  it('refuses enable with nothing turned off, exit 1 (red: enable succeeds from nothing)', async () => {
    const where = home();
    writeHooks(where);
    const refused = result(await fileCli('enable', where), 1);
    expect(refused.error?.reason).toBe('not-disabled');
    expect(refused.command).toBe('enable');
  });

  // Red: the summary heads a disable "remove:" and an enable "install:", commands the user never ran.
  it('heads its readable summary with the command run, disable or enable', async () => {
    const where = home();
    writeHooks(where);
    result(await install(where), 0);
    const off = await cli(['disable', ...files(where)]);
    expect(off.stdout).toMatch(/^disable: the hook file was written/);
    const on = await cli(['enable', ...files(where)]);
    expect(on.stdout).toMatch(/^enable: the hook file was written/);
  });
});
