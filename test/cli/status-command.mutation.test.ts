// `cursorhooks status` with a spec and shell given: they reach the status reader, so an entry
// already running this host's command is listed as unowned; and the host path checks of status
// are never vouched for.
import { describe, expect, it, vi } from 'vitest';
import { home, install, result, specArgs, writeHooks } from './file-support.js';
import { cli } from './support.js';

interface Status {
  owned: { state: string; unowned: { event: string; index: number }[] };
  checkedSpec: { source: string } | null;
  hostPaths: { verified: boolean; vouched: boolean } | null;
}

const statusOf = async (args: string[]): Promise<Status> => {
  const outcome = await cli(['status', ...args, '--json']);
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  return JSON.parse(outcome.stdout) as Status;
};

describe('status with a spec given', () => {
  it('lists an entry running the given spec`s command as unowned when the ledger owns none, only with both the spec and the shell (red: the given spec or shell does not reach the status reader)', async () => {
    const where = home();
    writeHooks(where);
    result(await install(where), 0);
    // Another ledger: nothing owned there, but the hook file runs the spec's command.
    const other = ['--hooks-file', where.hooks, '--ledger', `${where.ledger}.other`];
    const given = await statusOf([...other, ...specArgs(where.spec)]);
    expect(given.owned.state).toBe('not-installed');
    expect(given.owned.unowned).toEqual([{ event: 'stop', index: 1 }]);
    expect(given.checkedSpec).toMatchObject({ source: 'given' });
    const specOnly = specArgs(where.spec).slice(0, 4);
    expect((await statusOf([...other, ...specOnly])).owned.unowned).toEqual([]);
    expect((await statusOf(other)).owned.unowned).toEqual([]);
  });
});

// Last in this file: it loads fresh copies of the CLI's modules (the shared `cli` helper's copy
// would then see error classes of another copy).
describe('status host path checks, from fresh modules', () => {
  it('reports checks not performed as not vouched for (red: status claims a vouch nobody gave)', async () => {
    const report = {
      verified: false,
      checks: [
        { role: 'executable', check: 'owner', path: '/x', status: 'not-performed', detail: 'n' },
      ],
    };
    vi.resetModules();
    vi.doMock('../../src/node/status/path-checks.js', () => ({
      checkHostPaths: async () => report,
    }));
    try {
      const { run } = await import('../../src/cli/run.js');
      const where = home();
      let stdout = '';
      const code = await run(
        [
          'status',
          '--hooks-file',
          where.hooks,
          '--ledger',
          where.ledger,
          ...specArgs(where.spec),
          '--json',
        ],
        new Uint8Array(0),
        {
          stdout: (text) => {
            stdout += text;
          },
          stderr: () => {},
        },
      );
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as Status).hostPaths).toEqual({ ...report, vouched: false });
    } finally {
      vi.doUnmock('../../src/node/status/path-checks.js');
    }
  });
});
