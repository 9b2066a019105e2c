// `cursorhooks qualify` as a user reads it: the text of every action and phase, line by line, and
// the JSON fields each action adds; which options each action takes, and which paths must be
// absolute. The probe's own behaviour is tested in test/node/qualify; here only what the command
// makes of it. The probe's view (paths, command line) comes from the JSON result, so each text
// case checks the command's words and layout, not the probe's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fire, type ProbeHome, probeHome, USER_HOOKS } from '../node/qualify-support.js';
import { cli, expectUsageError } from './support.js';

const FAMILY = 'posix-single-quote';

interface Probe {
  readonly family: string;
  readonly hooksFile: string;
  readonly directory: string;
  readonly recorder: string;
  readonly command: string;
}

interface NextStep {
  readonly code: string;
  readonly command: string | null;
  readonly sentence: string;
}

const qualify = (...args: string[]) => cli(['qualify', ...args]);
const startArgs = (where: ProbeHome, ...extra: string[]) => [
  'start',
  '--state-dir',
  where.stateDir,
  '--hooks-file',
  where.hooksFile,
  '--family',
  FAMILY,
  ...extra,
];

const probeText = (probe: Probe) =>
  [
    `family: ${probe.family}`,
    `hooks file: ${probe.hooksFile}`,
    `probe directory: ${probe.directory}`,
    `probe command: ${probe.command}`,
  ].join('\n');

const nextText = (next: NextStep) =>
  `next: ${next.sentence}${next.command === null ? '' : `\n  ${next.command}`}`;

async function statusJSON(where: ProbeHome) {
  const outcome = await qualify('status', '--state-dir', where.stateDir, '--json');
  expect(outcome.exitCode, outcome.stderr).toBe(0);
  return JSON.parse(outcome.stdout) as {
    phase: string;
    probe: Probe | null;
    entry: unknown;
    nextStep: NextStep;
    invocations: unknown[];
    error: unknown;
  };
}

describe('qualify in text', () => {
  it('prints each action and phase in its own words, start to finish (red: a line is missing, misworded or shows the wrong probe field)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir];

    const idle = await statusJSON(where);
    expect(idle).toMatchObject({ phase: 'none', probe: null, entry: null, invocations: [] });
    expect(await qualify('status', ...dir)).toEqual({
      exitCode: 0,
      stdout: `qualify: nothing in progress\n${nextText(idle.nextStep)}\n`,
      stderr: '',
    });
    expect(await qualify('cancel', ...dir)).toEqual({
      exitCode: 0,
      stdout: 'qualify cancel: nothing in progress\n',
      stderr: '',
    });

    const started = await qualify(...startArgs(where));
    const waiting = await statusJSON(where);
    const probe = waiting.probe as Probe;
    expect(started).toEqual({
      exitCode: 0,
      stdout: `qualify start: the probe entry is installed. In Cursor, finish one agent turn (IDE: send the agent a short message; CLI: an interactive session, not -p), then run qualify finish\n${probeText(probe)}\n`,
      stderr: '',
    });
    // Nothing recorded yet: no "recorded" line, and a next step without a command.
    expect(waiting.nextStep.command).toBeNull();
    expect((await qualify('status', ...dir)).stdout).toBe(
      `qualify: waiting\n${probeText(probe)}\n${nextText(waiting.nextStep)}\n`,
    );

    // A second start is refused: the result line points at status, and the error follows.
    const again = await qualify(...startArgs(where));
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toBe(
      `qualify start: refused; run qualify status --state-dir ${where.stateDir}\n`,
    );
    expect(again.stderr).toMatch(/^cursorhooks: .* \[qualify-in-progress\]\n$/);

    await fire(where);
    const fired = await statusJSON(where);
    expect(fired.nextStep.command).not.toBeNull();
    expect((await qualify('status', ...dir)).stdout).toBe(
      `qualify: waiting\n${probeText(probe)}\nrecorded: 1 stop invocation(s), 1 matching\n${nextText(fired.nextStep)}\n`,
    );

    const finished = await qualify('finish', ...dir, '--out', where.out);
    // Red before: finish never said the id it wrote, which install and update need.
    const { id } = JSON.parse(readFileSync(where.out, 'utf8'));
    expect(finished).toEqual({
      exitCode: 0,
      stdout: `qualify finish: the record is written; the probe entry and directory are removed\n${probeText(probe)}\ncontract: ${id}\nrecord: ${where.out}\n  use it with --shell ${id} --contract-file ${where.out}\n`,
      stderr: '',
    });
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('cancel of a probe in progress says what it removed (red: cancel prints the wrong sentence or no probe)', async () => {
    const where = probeHome();
    await qualify(...startArgs(where));
    const probe = (await statusJSON(where)).probe as Probe;
    expect(await qualify('cancel', '--state-dir', where.stateDir)).toEqual({
      exitCode: 0,
      stdout: `qualify cancel: the probe entry and directory are removed; no record was written\n${probeText(probe)}\n`,
      stderr: '',
    });
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('a mismatch lists each differing token of each unmatched recording, and nothing else (red: equal tokens or matched recordings are listed, or a difference is hidden)', async () => {
    const where = probeHome();
    await qualify(...startArgs(where));
    const probe = (await statusJSON(where)).probe as Probe;
    await fire(where, { misbehave: 'drop-empty' });
    const refused = await qualify(
      'finish',
      '--state-dir',
      where.stateDir,
      '--out',
      where.out,
      '--json',
    );
    const report = JSON.parse(refused.stdout) as {
      invocations: {
        recording: string;
        matched: boolean;
        tokens: { index: number; intended: string; recorded: string | null; equal: boolean }[];
      }[];
    };
    const lines = report.invocations
      .filter((invocation) => !invocation.matched)
      .flatMap((invocation) => [
        `recording ${invocation.recording}:`,
        ...invocation.tokens
          .filter((token) => !token.equal)
          .map(
            (token) =>
              `  token ${token.index}: meant ${JSON.stringify(token.intended)}, got ${JSON.stringify(token.recorded)}`,
          ),
      ]);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines).toContain('  token 5: meant "", got "it\'s"');
    const text = await qualify('finish', '--state-dir', where.stateDir, '--out', where.out);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe(
      `qualify finish: refused; run qualify status --state-dir ${where.stateDir}\n${probeText(probe)}\n${lines.join('\n')}\n`,
    );
    expect(text.stderr).toMatch(/^cursorhooks: .* \[probe-argv-mismatch\]\n$/);
    expect(existsSync(where.out)).toBe(false);
  });
});

describe('qualify with two recordings, one matching', () => {
  it('status counts the matching ones, and finish lists only the recording that differs (red: every recording counts as matching, or a matching one is listed as differing)', async () => {
    const where = probeHome();
    await qualify(...startArgs(where));
    await fire(where);
    await fire(where, { misbehave: 'drop-empty' });
    const fired = await statusJSON(where);
    expect(fired.invocations).toHaveLength(2);
    expect((await qualify('status', '--state-dir', where.stateDir)).stdout).toContain(
      '\nrecorded: 2 stop invocation(s), 1 matching\n',
    );
    const refused = await qualify('finish', '--state-dir', where.stateDir, '--out', where.out);
    expect(refused.exitCode).toBe(1);
    const recordings = refused.stdout.split('\n').filter((line) => line.startsWith('recording '));
    const unmatched = (fired.invocations as { recording: string; matched: boolean }[]).filter(
      (invocation) => !invocation.matched,
    );
    expect(recordings).toEqual(unmatched.map((invocation) => `recording ${invocation.recording}:`));
    await qualify('cancel', '--state-dir', where.stateDir);
  });
});

describe('qualify status of a broken state file', () => {
  it('reports the state file`s error in the result, exit 0 (red: the error is dropped from the status)', async () => {
    const where = probeHome();
    mkdirSync(where.stateDir, { mode: 0o700 });
    writeFileSync(join(where.stateDir, 'qualification.json'), 'not a state file');
    const found = await statusJSON(where);
    expect(found.nextStep.code).toBe('fix-state');
    expect(found.error).toMatchObject({ kind: expect.any(String), reason: expect.any(String) });
    expect(found.error).not.toBeNull();
  });
});

describe('qualify --json', () => {
  it('start adds the host path checks; status the entry and invocations; finish the record, out and invocations; cancel nothing more (red: a field is dropped or comes from the wrong outcome)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir];
    const started = JSON.parse((await qualify(...startArgs(where, '--json'))).stdout);
    expect(Object.keys(started)).toEqual(['action', 'status', 'probe', 'hostPaths', 'error']);
    expect(started).toMatchObject({ action: 'start', status: 'done', error: null });
    expect(started.hostPaths).toMatchObject({ verified: true, vouched: false });
    expect(started.hostPaths.checks.length).toBeGreaterThan(0);

    const waiting = await statusJSON(where);
    expect(Object.keys(waiting)).toEqual([
      'action',
      'phase',
      'probe',
      'invocations',
      'entry',
      'nextStep',
      'error',
    ]);
    expect(waiting).toMatchObject({
      action: 'status',
      phase: 'waiting',
      probe: started.probe,
      invocations: [],
      entry: { file: 'valid', owned: 'owned', nextStep: 'none' },
      nextStep: { code: 'fire-stop' },
      error: null,
    });

    await fire(where);
    const fired = await statusJSON(where);
    const finished = JSON.parse(
      (await qualify('finish', ...dir, '--out', where.out, '--id', 'my-build', '--json')).stdout,
    );
    expect(Object.keys(finished)).toEqual([
      'action',
      'status',
      'probe',
      'record',
      'out',
      'invocations',
      'error',
    ]);
    expect(finished).toMatchObject({
      action: 'finish',
      status: 'done',
      probe: { ...started.probe, phase: 'finishing' },
      out: where.out,
      invocations: fired.invocations,
      error: null,
    });
    // --id names the contract; the record on disk is the one printed.
    expect(finished.record.id).toBe('my-build');
    expect(JSON.parse(readFileSync(where.out, 'utf8'))).toEqual(finished.record);

    const cancelled = JSON.parse((await qualify('cancel', ...dir, '--json')).stdout);
    expect(cancelled).toEqual({ action: 'cancel', status: 'no-op', probe: null, error: null });
  });

  it('start runs the given --recorder, and checks it (red: --recorder is ignored, or its failed checks pass)', async () => {
    const where = probeHome();
    const refused = await qualify(...startArgs(where, '--recorder', '/bin/sh', '--json'));
    expect(refused.exitCode).toBe(1);
    const result = JSON.parse(refused.stdout);
    expect(result.probe.recorder).toBe('/bin/sh');
    expect(result.probe.command.startsWith("'/bin/sh' ")).toBe(true);
    // /bin is a link on this kind of system, or /bin/sh is: a check fails or is not performed.
    expect(result.hostPaths.verified).toBe(false);
    expect(result.error).toMatchObject({ reason: 'executable-unverified' });
    expect(JSON.parse(refused.stderr).error.reason).toBe('executable-unverified');
  });
});

describe('qualify options', () => {
  it.each([
    ['start', ['--out', '/tmp/x.json'], '--out'],
    ['start', ['--id', 'x'], '--id'],
    ['status', ['--family', FAMILY], '--family'],
    ['status', ['--vouch-unperformed-checks'], '--vouch-unperformed-checks'],
    ['finish', ['--out', '/tmp/x.json', '--recorder', '/bin/sh'], '--recorder'],
    ['finish', ['--out', '/tmp/x.json', '--hooks-file', '/tmp/h.json'], '--hooks-file'],
    ['cancel', ['--id', 'x'], '--id'],
    ['cancel', ['--family', FAMILY], '--family'],
  ])(
    '%s refuses %j as not its own, naming %s (red: an option is silently ignored by an action)',
    async (action, extra, option) => {
      const where = probeHome();
      const extraFamily = action === 'start' ? ['--family', FAMILY] : [];
      const error = expectUsageError(
        await qualify(action, '--state-dir', where.stateDir, ...extraFamily, ...extra, '--json'),
        'option-not-for-action',
        { option },
      );
      expect(error.message).toBe(`option ${option} is not taken by qualify ${action}`);
      expect(existsSync(where.stateDir)).toBe(false);
    },
  );

  it('names the option an action requires, and the actions when none is given (red: the message misleads)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir, '--json'];
    expect(
      expectUsageError(await qualify('start', ...dir), 'option-required', { option: '--family' })
        .message,
    ).toBe('option --family is required by qualify start');
    expect(
      expectUsageError(await qualify('finish', ...dir), 'option-required', { option: '--out' })
        .message,
    ).toBe('option --out is required by qualify finish');
    expect(expectUsageError(await qualify(...dir), 'action-missing').message).toBe(
      'qualify needs one action: start, status, finish, cancel',
    );
    expect(expectUsageError(await qualify('stop', ...dir), 'action-unknown').message).toBe(
      'qualify needs one action: start, status, finish, cancel',
    );
  });

  it('refuses a relative --hooks-file and --recorder before anything is made (red: a relative path reaches the probe)', async () => {
    const where = probeHome();
    for (const [option, value] of [
      ['--hooks-file', 'hooks.json'],
      ['--recorder', 'record'],
    ] as const) {
      const args = ['start', '--state-dir', where.stateDir, '--family', FAMILY, option, value];
      expectUsageError(await qualify(...args, '--json'), 'option-path-relative', {
        option,
      });
    }
    expect(existsSync(where.stateDir)).toBe(false);
  });
});

// Last in this file: these load fresh copies of the CLI's modules (the command's option tables
// and sentences are module-level constants, which a mutation run switches only in code evaluated
// after the test began), whose error classes differ from the ones the shared `cli` helper's copy
// checks, so a test after them would see internal errors.
async function freshQualify(...args: string[]) {
  vi.resetModules();
  const { run } = await import('../../src/cli/run.js');
  let stdout = '';
  let stderr = '';
  const exitCode = await run(['qualify', ...args], new Uint8Array(0), {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { exitCode, stdout, stderr };
}

const reasonOf = (outcome: { stderr: string }) =>
  (JSON.parse(outcome.stderr || '{"error":{}}') as { error: { reason?: string } }).error.reason;

describe('qualify, from fresh modules', () => {
  it('start takes --recorder and --vouch-unperformed-checks, finish takes --id (red: an action refuses an option it documents)', async () => {
    const where = probeHome();
    const started = await freshQualify(
      ...startArgs(where, '--recorder', '/bin/sh', '--vouch-unperformed-checks', '--json'),
    );
    expect(reasonOf(started)).not.toBe('option-not-for-action');
    expect(JSON.parse(started.stdout).probe.recorder).toBe('/bin/sh');
    const finished = await freshQualify(
      'finish',
      '--state-dir',
      where.stateDir,
      '--out',
      where.out,
      '--id',
      'x',
      '--json',
    );
    expect(reasonOf(finished)).toBe('qualify-not-started');
  });

  it('start requires --family and finish --out (red: an action runs without what it needs)', async () => {
    const where = probeHome();
    const dir = ['--state-dir', where.stateDir, '--json'];
    const start = await freshQualify('start', ...dir);
    expect(JSON.parse(start.stderr).error).toMatchObject({
      reason: 'option-required',
      option: '--family',
    });
    const finish = await freshQualify('finish', ...dir);
    expect(JSON.parse(finish.stderr).error).toMatchObject({
      reason: 'option-required',
      option: '--out',
    });
  });

  it.each([
    ['--state-dir', ['status', '--state-dir', 'state']],
    ['--hooks-file', ['start', '--state-dir', '/s', '--family', FAMILY, '--hooks-file', 'h.json']],
    ['--recorder', ['start', '--state-dir', '/s', '--family', FAMILY, '--recorder', 'rec']],
    ['--out', ['finish', '--state-dir', '/s', '--out', 'record.json']],
  ])('refuses a relative %s (red: a relative path reaches the probe)', async (option, args) => {
    const outcome = await freshQualify(...args, '--json');
    expect(outcome.exitCode).toBe(2);
    expect(JSON.parse(outcome.stderr).error).toMatchObject({
      reason: 'option-path-relative',
      option,
    });
  });

  it('cancel of a probe in progress says what it removed (red: the cancel sentence changed)', async () => {
    const where = probeHome();
    await freshQualify(...startArgs(where));
    const cancelled = await freshQualify('cancel', '--state-dir', where.stateDir);
    expect(cancelled.stdout.split('\n')[0]).toBe(
      'qualify cancel: the probe entry and directory are removed; no record was written',
    );
    expect(where.hooks()).toBe(USER_HOOKS);
  });

  it('--vouch-unperformed-checks lets start go ahead on checks not performed, and says so (red: the vouch is ignored, or taken without the option)', async () => {
    const report = {
      verified: false,
      checks: [
        {
          role: 'executable',
          check: 'owner',
          path: '/x',
          status: 'not-performed',
          detail: 'Not measured.',
        },
      ],
    };
    vi.doMock('../../src/node/status/path-checks.js', () => ({
      checkHostPaths: async () => report,
    }));
    try {
      const where = probeHome();
      const refused = await freshQualify(...startArgs(where, '--json'));
      expect(refused.exitCode).toBe(1);
      expect(JSON.parse(refused.stdout).hostPaths).toMatchObject({
        verified: false,
        vouched: false,
      });
      const vouched = await freshQualify(
        ...startArgs(where, '--vouch-unperformed-checks', '--json'),
      );
      expect(vouched.exitCode, vouched.stderr).toBe(0);
      expect(JSON.parse(vouched.stdout)).toMatchObject({
        status: 'done',
        hostPaths: { verified: false, vouched: true },
      });
      await freshQualify('cancel', '--state-dir', where.stateDir);
      expect(where.hooks()).toBe(USER_HOOKS);
    } finally {
      vi.doUnmock('../../src/node/status/path-checks.js');
    }
  });

  it('start without --hooks-file takes the default hook file (red: --hooks-file is required, or the default is not used)', async () => {
    const where = probeHome();
    // The default is under the user's home; a double points it at this test's file instead.
    vi.doMock('../../src/node/locate.js', () => ({ defaultHooksPath: () => where.hooksFile }));
    try {
      const started = await freshQualify(
        'start',
        '--state-dir',
        where.stateDir,
        '--family',
        FAMILY,
        '--json',
      );
      expect(started.exitCode, started.stderr).toBe(0);
      expect(JSON.parse(started.stdout).probe.hooksFile).toBe(where.hooksFile);
      expect(where.hooks()).not.toBe(USER_HOOKS);
    } finally {
      vi.doUnmock('../../src/node/locate.js');
    }
    await freshQualify('cancel', '--state-dir', where.stateDir);
    expect(where.hooks()).toBe(USER_HOOKS);
  });
});
