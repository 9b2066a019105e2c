// No advice leads into a refusal. From every state the edit and lifecycle sweeps reach, each
// command a user may run (and status, plain and given the spec) names a next step; every printed
// command line is run exactly as /bin/sh splits it, and the walk must end at `none` or at a
// decision only the user can take, never meeting the refusal it came from, never looping.
import { spawnSync } from 'node:child_process';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextStepJSON } from '../../src/cli/file/status-result.js';
import { GONE_SENTENCE, readStatus } from '../../src/node/status/status.js';
import { expectGenerated, table } from '../docs/generated.js';
import type { ChildJob } from '../node/child/operate.js';
import { buildChild, runChild } from '../node/child/spawn.js';
import { type Draft, record } from '../shell/records.js';
import {
  fileCli,
  files,
  type Home,
  home,
  install,
  readHooks,
  specArgs,
  writeHooks,
} from './file-support.js';
import { cli, SHELL } from './support.js';

interface Step {
  readonly code: string;
  readonly command: string | null;
  readonly sentence: string;
}

/** The words of a printed command line, split by /bin/sh exactly as a user's paste would be. */
function wordsOf(line: string): string[] {
  const split = spawnSync('/bin/sh', ['-c', `set -- ${line}; printf '%s\\0' "$@"`], {
    encoding: 'utf8',
  });
  expect(split.status).toBe(0);
  return split.stdout.split('\0').slice(0, -1);
}

const ours = (entry: { command?: unknown }) => String(entry.command).includes('cursor-event');

/** A foreign edit of the parsed document, rewritten whole as an editor does. */
function edit(where: Home, change: (hooks: Record<string, { command?: unknown }[]>) => void) {
  const doc = JSON.parse(readHooks(where)) as { hooks: Record<string, { command?: unknown }[]> };
  change(doc.hooks);
  writeFileSync(where.hooks, `${JSON.stringify(doc, null, 2)}\n`);
}
const deleteOurs = (where: Home) =>
  edit(where, (hooks) => {
    for (const event of Object.keys(hooks))
      hooks[event] = (hooks[event] ?? []).filter((e) => !ours(e));
  });

type Setup = (where: Home) => Promise<void>;
const installed: Setup = async (where) => {
  writeHooks(where);
  expect((await install(where)).exitCode).toBe(0);
};

/** A qualified contract's record beside the hook file, and the id it holds. */
const QUALIFIED = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';
const recordPath = (where: Home) => join(where.dir, 'record.json');
const writeRecord = (where: Home, edit?: (r: Draft) => void) =>
  writeFileSync(recordPath(where), JSON.stringify(record(edit), null, 2));
const installedWithRecord: Setup = async (where) => {
  writeHooks(where);
  writeRecord(where);
  const { executable, selector } = where.spec;
  const spec = ['--executable', executable, '--selector', selector, '--shell', QUALIFIED];
  const run = await fileCli('install', where, ...spec, '--contract-file', recordPath(where));
  expect(run.exitCode, run.stderr).toBe(0);
};

/**
 * The states: fresh, installed (with a built-in contract, or a qualified one whose record the
 * ledger keeps, also moved or changed since), each foreign edit, lost files, and the lifecycle's
 * ends.
 */
const STATES: Readonly<Record<string, Setup>> = {
  'no hook file': async () => {},
  'a foreign hook file': async (where) => writeHooks(where),
  installed,
  'installed, other hooks edited': async (where) => {
    await installed(where);
    edit(where, (hooks) => {
      hooks.other = [{ command: 'x' }];
    });
  },
  'installed, our entry deleted': async (where) => {
    await installed(where);
    deleteOurs(where);
  },
  'installed, our entry and others deleted': async (where) => {
    await installed(where);
    deleteOurs(where);
    edit(where, (hooks) => {
      hooks.other = [{ command: 'x' }];
    });
  },
  'installed, our timeout edited': async (where) => {
    await installed(where);
    edit(where, (hooks) => {
      hooks.stop = (hooks.stop ?? []).map((e) => (ours(e) ? { ...e, timeout: 9 } : e));
    });
  },
  'installed, our entry copied to another event': async (where) => {
    await installed(where);
    edit(where, (hooks) => {
      hooks.beforeSubmitPrompt = (hooks.stop ?? []).filter(ours);
    });
  },
  'installed, then ~/.cursor deleted': async (where) => {
    await installed(where);
    rmSync(dirname(where.hooks), { recursive: true });
  },
  'installed, then the ledger lost': async (where) => {
    await installed(where);
    rmSync(where.ledger);
  },
  'removed, then a stale editor buffer saved back over it': async (where) => {
    await installed(where);
    const stale = readHooks(where);
    expect((await fileCli('remove', where)).exitCode).toBe(0);
    writeFileSync(where.hooks, stale);
  },
  'released, the entry kept': async (where) => {
    await installed(where);
    edit(where, (hooks) => {
      hooks.stop = (hooks.stop ?? []).map((e) => (ours(e) ? { ...e, timeout: 9 } : e));
    });
    expect((await fileCli('release', where)).exitCode).toBe(0);
  },
  'turned off by the user': async (where) => {
    await installed(where);
    expect((await fileCli('disable', where)).exitCode).toBe(0);
  },
  'installed, then the executable deleted': async (where) => {
    await installed(where);
    rmSync(where.spec.executable);
  },
  'installed with a contract file': installedWithRecord,
  'installed with a contract file, the record moved': async (where) => {
    await installedWithRecord(where);
    renameSync(recordPath(where), join(where.dir, 'moved.json'));
  },
  'installed with a contract file, the record changed': async (where) => {
    await installedWithRecord(where);
    writeRecord(where, (r) => {
      r.evidence.date = '2026-12-04';
    });
  },
  'installed, the hook file made read-only': async (where) => {
    await installed(where);
    edit(where, (hooks) => {
      hooks.other = [{ command: 'x' }];
    });
    chmodSync(where.hooks, 0o444);
  },
};

/** What a user may run from a state: each file-level command, and status plain or given a spec. */
const ASKS: Readonly<Record<string, (where: Home) => string[]>> = {
  status: () => ['status'],
  'status with the spec': (where) => ['status', ...specArgs(where.spec)],
  install: (where) => ['install', ...specArgs(where.spec)],
  update: (where) => ['update', ...specArgs(where.otherSpec)],
  remove: () => ['remove'],
  repair: () => ['repair'],
  release: () => ['release'],
  enable: () => ['enable'],
};

/** Hand steps whose decision the walk takes for the user, as the sentence asks; others end it. */
const HAND: Readonly<Record<string, (where: Home) => void>> = {
  'review-entry': deleteOurs,
  'make-writable': (where) => chmodSync(where.hooks, 0o644),
};

let walked = 0;
let followed = 0;
let crashed = 0;
/** For each command killed: how many crash points, and every step status named after one. */
const crashSteps = new Map<string, string[]>();
/** What plain status names in each state, and the step each refusal met names: for the docs. */
const statusSteps = new Map<string, string[]>();
const refusalSteps = new Map<string, Set<string>>();

/** A printed line with this home's paths as placeholders, as the docs show it. */
function shown(line: string | null, where: Home): string {
  if (line === null) return 'no line';
  const names = new Map([
    [where.hooks, 'HOOKS'],
    [where.ledger, 'LEDGER'],
    [where.spec.executable, 'EXE'],
    [where.spec.selector, 'SEL'],
    [where.otherSpec.selector, 'SEL2'],
  ]);
  const words = wordsOf(line).map((word) => names.get(word) ?? word);
  // Nothing else in a line needs quoting (the sweep's shell ids are plain words).
  expect(
    words.every((word) => /^[\w@%+=:,./-]+$/.test(word)),
    line,
  ).toBe(true);
  return `\`${words.join(' ')}\``;
}

async function stepOf(
  args: string[],
  where: Home,
): Promise<{ step: Step; refused: string | null }> {
  const [command, ...rest] = args;
  const run = await cli([command ?? '', ...files(where), ...rest, '--json']);
  const parsed = JSON.parse(run.stdout) as {
    nextStep: Step | null;
    error?: { reason: string } | null;
  };
  if (run.exitCode === 0 && command !== 'status') {
    const status = await cli(['status', ...files(where), '--json']);
    return { step: (JSON.parse(status.stdout) as { nextStep: Step }).nextStep, refused: null };
  }
  // Red: a refused command printed no way out.
  expect(parsed.nextStep, `${args.join(' ')}: ${run.stdout}`).not.toBeNull();
  return { step: parsed.nextStep as Step, refused: parsed.error?.reason ?? null };
}

/** Follows every step from `state` after `ask`; the named states also fill the docs' tables. */
async function walk(
  state: string,
  ask: string,
  setup: Setup = STATES[state] as Setup,
): Promise<Step> {
  const where = home();
  await setup(where);
  const asked = (ASKS[ask] as (w: Home) => string[])(where);
  let { step, refused } = await stepOf(asked, where);
  const first = step;
  const named = setup === STATES[state];
  if (named && ask === 'status') {
    statusSteps.set(state, [`\`${step.code}\``, shown(step.command, where)]);
  }
  if (named && refused !== null) {
    const key = `\`${asked[0]}\` refused \`${refused}\``;
    refusalSteps.set(key, (refusalSteps.get(key) ?? new Set()).add(`\`${step.code}\``));
  }
  const seen: string[] = [];
  walked++;
  for (let hops = 0; step.code !== 'none'; hops++) {
    const trail = `${state} / ${ask}: ${seen.join(' -> ')} -> ${step.code}`;
    expect(hops, trail).toBeLessThan(5);
    const hand = HAND[step.code];
    if (step.command === null) {
      if (hand === undefined) return first; // a decision only the user can take, named by its step
      hand(where);
      ({ step, refused } = await stepOf(['status'], where));
      seen.push(`(${step.code} by hand)`);
      continue;
    }
    const key = `${step.code}:${step.command}`;
    // Red: following the tool's advice came back to where it started.
    expect(seen, trail).not.toContain(key);
    seen.push(key);
    const [program, ...args] = wordsOf(step.command);
    expect(program).toBe('cursorhooks');
    followed++;
    const run = await cli([...args, '--json']);
    const reason =
      run.exitCode === 0 ? null : (JSON.parse(run.stdout).error?.reason ?? 'no-result');
    // Red: a printed line did not run (a usage error) or met the refusal it was meant to avoid.
    expect(run.exitCode, `${trail}: ${run.stderr}`).not.toBe(2);
    expect(reason === null || reason !== refused, `${trail}: ${reason}`).toBe(true);
    // A refused line's own step is followed next; after a success, status's.
    const next = JSON.parse(run.stdout) as { nextStep: Step | null };
    if (reason !== null && next.nextStep != null)
      ({ step, refused } = { step: next.nextStep, refused: reason });
    else ({ step, refused } = await stepOf(args[0] === 'status' ? args : ['status'], where));
  }
  return first;
}

describe('every printed step from every reached state', () => {
  it.each(Object.keys(STATES))(
    'from "%s" every ask ends at none or a user decision (red: advice leads into a refusal, a loop or an unrunnable line)',
    async (state) => {
      for (const ask of Object.keys(ASKS)) await walk(state, ask);
    },
    60_000,
  );

  it('walked every state and followed printed lines (red: the sweep silently checked nothing)', () => {
    expect(walked).toBe(Object.keys(STATES).length * Object.keys(ASKS).length);
    expect(followed).toBeGreaterThan(20);
  });

  it('docs/protocol.md shows what the sweep met, state by state (red: the page drifted from what status and the refusals name)', () => {
    const states = Object.keys(STATES).map((state) => [state, ...(statusSteps.get(state) ?? [])]);
    expectGenerated(
      'docs/protocol.md',
      'states the sweep reaches',
      table(['state', 'status names', 'and prints'], states),
    );
    const refusals = [...refusalSteps]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([refusal, steps]) => [refusal, [...steps].sort().join(', ')]);
    expectGenerated(
      'docs/protocol.md',
      'refusals the sweep meets',
      table(['a command', 'names'], refusals),
    );
  });
});

describe('the refusals the sweep met, each named', () => {
  // Red before: remove after ~/.cursor was deleted refused owner-absent and status said repair.
  it('a remove whose entry is gone names release, never repair, and release runs as printed', async () => {
    const where = home();
    await installed(where);
    rmSync(dirname(where.hooks), { recursive: true });
    const { step, refused } = await stepOf(['remove'], where);
    expect(refused).toBe('owner-absent');
    expect(step.code).toBe('release');
    // Red: the sentence blamed an edit of the entry, for a user who is uninstalling.
    expect(step.sentence).toBe(GONE_SENTENCE);
    const [, ...args] = wordsOf(step.command as string);
    expect((await cli(args)).exitCode).toBe(0);
  });

  // Red before: spec-mismatch pointed at nothing (or at install, which refuses again).
  it('install with another spec refuses spec-mismatch and names update with that spec, which runs', async () => {
    const where = home();
    await installed(where);
    const { step, refused } = await stepOf(['install', ...specArgs(where.otherSpec)], where);
    expect(refused).toBe('spec-mismatch');
    expect(step.code).toBe('update');
    const [, ...args] = wordsOf(step.command as string);
    expect((await cli(args)).exitCode).toBe(0);
    expect(readHooks(where)).toContain(where.otherSpec.selector);
  });

  // Red before: the ledger said removed, status said install, install refused command-exists.
  it('a removed entry saved back into the file is reported unowned with review-entry', async () => {
    const where = home();
    await (STATES['removed, then a stale editor buffer saved back over it'] as Setup)(where);
    const { step } = await stepOf(['status'], where);
    expect(step.code).toBe('review-entry');
  });

  // Red before: the ledger lost, plain status printed an install line without a spec (exit 2).
  it('status after the ledger is lost prints no install line it cannot complete', async () => {
    const where = home();
    await (STATES['installed, then the ledger lost'] as Setup)(where);
    const { step } = await stepOf(['status'], where);
    expect(step).toMatchObject({ code: 'install', command: null });
    const given = await stepOf(['status', ...specArgs(where.spec)], where);
    expect(given.step.code).toBe('review-entry');
  });

  // Red before: status after release with the entry kept kept naming review-entry / release.
  it("after release the kept entry is the user's: none; deleting it makes it install", async () => {
    const where = home();
    await (STATES['released, the entry kept'] as Setup)(where);
    expect((await stepOf(['status'], where)).step.code).toBe('none');
    deleteOurs(where);
    expect((await stepOf(['status'], where)).step.code).toBe('install');
  });

  // Red before: executable-unverified named no way out (status said none, install refused again).
  it('a failed host path check names fix-host-paths, a step for the user', async () => {
    const where = home();
    await (STATES['installed, then the executable deleted'] as Setup)(where);
    const { step, refused } = await stepOf(['install', ...specArgs(where.spec)], where);
    expect(refused).toBe('executable-unverified');
    expect(step).toMatchObject({ code: 'fix-host-paths', command: null });
  });

  // Red before: status said none while the owned entry's executable no longer existed.
  it('status names fix-host-paths when the installed entry runs an executable that is gone', async () => {
    const where = home();
    await (STATES['installed, then the executable deleted'] as Setup)(where);
    const run = await cli(['status', ...files(where), '--json']);
    const status = JSON.parse(run.stdout) as {
      nextStep: Step;
      hostPaths: { checks: { status: string }[] };
    };
    expect(status.nextStep).toMatchObject({ code: 'fix-host-paths', command: null });
    expect(status.hostPaths.checks.some((check) => check.status === 'failed')).toBe(true);
  });

  // Red before: without --contract-file every command refused the qualified shell it was made with.
  it('installed with a contract file: status, remove and update need no --contract-file', async () => {
    const where = home();
    await installedWithRecord(where);
    expect((await stepOf(['status'], where)).step.code).toBe('none');
    const { executable, selector } = where.otherSpec;
    const spec = ['--executable', executable, '--selector', selector, '--shell', QUALIFIED];
    expect((await cli(['update', ...files(where), ...spec])).exitCode).toBe(0);
    expect((await cli(['remove', ...files(where)])).exitCode).toBe(0);
    expect((await stepOf(['status'], where)).step.code).toBe('install');
  });

  // Red before: a moved or changed record read as an unregistered contract, with no word why.
  it.each([
    ['moved', 'installed with a contract file, the record moved', /new place/],
    ['changed', 'installed with a contract file, the record changed', /has changed since/],
  ])(
    'a record %s names register-contract saying what happened, as a step for the user',
    async (_, state, says) => {
      const where = home();
      await (STATES[state] as Setup)(where);
      for (const ask of [['status'], ['remove'], ['repair']]) {
        const { step } = await stepOf(ask, where);
        expect(step).toMatchObject({ code: 'register-contract', command: null });
        expect(step.sentence).toMatch(says);
      }
    },
  );

  // Red: the printed line dropped the contract files the user passed.
  it('a printed command line carries the --contract-file paths status was given', async () => {
    const where = home();
    await installed(where);
    deleteOurs(where);
    const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger });
    const step = nextStepJSON(status, where.ledger, ['/records/my record.json']);
    expect(step.code).toBe('repair');
    expect(wordsOf(step.command as string).slice(-2)).toEqual([
      '--contract-file',
      '/records/my record.json',
    ]);
  });
});

// The crash states: a command SIGKILLed just before each of its mutating file calls (the fs seam
// of the child kills it, as in the lifecycle's crash sweep), then status, or the same command
// again, followed through the printed lines like every other state.
describe('every printed step after a crash at every point of every command', () => {
  let child: Awaited<ReturnType<typeof buildChild>>;
  beforeAll(async () => {
    child = await buildChild();
  });
  afterAll(() => child.dispose());

  /** Each command's start state and the ask that runs it again. */
  const COMMANDS = {
    install: { start: (where: Home) => writeHooks(where), again: 'install' },
    update: { start: installed, again: 'update' },
    remove: { start: installed, again: 'remove' },
    repair: {
      start: async (where: Home) => {
        await installed(where);
        deleteOurs(where);
      },
      again: 'repair',
    },
  } as const;

  const killed =
    (operation: keyof typeof COMMANDS, killAt: number): Setup =>
    async (where) => {
      await COMMANDS[operation].start(where);
      const spec = operation === 'update' ? where.otherSpec : where.spec;
      const job = { operation, hooks: where.hooks, ledger: where.ledger, spec, shell: SHELL };
      await runChild(child.script, { ...job, killAt } as ChildJob);
    };

  it.each(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[])(
    '%s killed at each mutating call: status and the command again end at none or a user decision (red: a crash point leads into a refusal, a loop or an unrunnable line)',
    async (operation) => {
      const probe = home();
      await COMMANDS[operation].start(probe);
      const spec = operation === 'update' ? probe.otherSpec : probe.spec;
      const job = { operation, hooks: probe.hooks, ledger: probe.ledger, spec, shell: SHELL };
      const calls = (await runChild(child.script, { ...job, killAt: 0 } as ChildJob)).output?.calls;
      // Red: the count came back empty and the sweep checked no crash point.
      expect(calls).toBeGreaterThan(10);
      const steps = new Set<string>();
      for (let killAt = 1; killAt <= (calls ?? 0); killAt++) {
        const setup = killed(operation, killAt);
        const state = `${operation} killed at call ${killAt}`;
        steps.add((await walk(state, 'status', setup)).code);
        await walk(state, COMMANDS[operation].again, setup);
        crashed++;
      }
      crashSteps.set(operation, [
        String(calls),
        [...steps]
          .sort()
          .map((code) => `\`${code}\``)
          .join(', '),
      ]);
    },
    240_000,
  );

  it('docs/protocol.md says what the crash sweep met (red: the page drifted from the sweep)', () => {
    const points = [...crashSteps.values()].reduce((sum, [calls]) => sum + Number(calls), 0);
    // Red: a crash point's walk was skipped and the counts below overstate the sweep.
    expect(crashed).toBe(points);
    expectGenerated(
      'docs/protocol.md',
      'sweep counts',
      `The sweep walks ${walked} starts (${Object.keys(STATES).length} states, each with ${Object.keys(ASKS).length} asks, and ${crashed} crash points, each with status and the command again) and follows ${followed} printed command lines: none loops, none meets the refusal it was printed for, none fails to run.\n`,
    );
    const rows = [...crashSteps].map(([operation, cells]) => [`\`${operation}\``, ...cells]);
    expectGenerated(
      'docs/protocol.md',
      'crash points the sweep reaches',
      table(
        ['killed command', 'mutating calls, each a crash point', 'status names after one'],
        rows,
      ),
    );
  });
});
