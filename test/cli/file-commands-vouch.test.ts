// --vouch-unperformed-checks, with the kit's checker replaced by one that reports what the
// Windows branch reports (checks not performed), since this machine measures every check.
import { describe, expect, it, vi } from 'vitest';
import type { HookSpec } from '../../src/index.js';
import type { HostPathReport } from '../../src/node/status/path-report.js';
import { files, home, install, readHooks, result, specArgs, writeHooks } from './file-support.js';
import { cli } from './support.js';

const report = vi.hoisted(() => ({ failed: false }));

vi.mock('../../src/node/status/path-checks.js', () => ({
  checkHostPaths: async (spec: HookSpec): Promise<HostPathReport> => ({
    verified: false,
    checks: [
      { role: 'executable', check: 'path-absolute', status: 'passed', path: spec.executable },
      {
        role: 'executable',
        check: 'owner',
        status: 'not-performed',
        path: spec.executable,
        detail: 'Not measured: on Windows, ownership and permissions are access control lists.',
      },
      {
        role: 'selector',
        check: 'regular-file',
        status: report.failed ? 'failed' : 'passed',
        path: spec.selector,
        ...(report.failed ? { detail: 'Nothing exists at this path.' } : {}),
      },
    ],
  }),
}));

describe('--vouch-unperformed-checks', () => {
  it('is needed when checks were not performed, and then says so (red: unmeasured checks count as passed, or vouching is silent)', async () => {
    report.failed = false;
    const where = home();
    writeHooks(where);
    const refused = result(await install(where), 1);
    expect(refused.error?.reason).toBe('executable-unverified');
    expect(refused.hostPaths).toMatchObject({ verified: false, vouched: false });

    const vouched = result(await install(where, '--vouch-unperformed-checks'), 0);
    expect(vouched.status).toBe('done');
    expect(vouched.hostPaths).toMatchObject({ verified: false, vouched: true });
    expect(readHooks(where)).toContain('agent-notify');

    const text = await cli([
      'update',
      ...files(where),
      ...specArgs(where.otherSpec),
      '--vouch-unperformed-checks',
    ]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('host path checks: 0 failed, 1 not performed, 2 passed');
    expect(text.stdout).toContain('VOUCHED: --vouch-unperformed-checks');
  });

  it('never vouches for a failed check (red: the flag overrides a measured failure)', async () => {
    report.failed = true;
    const where = home();
    writeHooks(where);
    const refused = result(await install(where, '--vouch-unperformed-checks'), 1);
    expect(refused.error?.reason).toBe('executable-unverified');
    expect(refused.hostPaths).toMatchObject({ verified: false, vouched: false });
    expect(readHooks(where)).not.toContain('agent-notify');
  });
});
