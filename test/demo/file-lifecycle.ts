// Part 1 of `npm run demo`: the file-level commands on a real hooks.json in a temporary home.
// Every step states its expected exit code and outcome, and the hook file's expected bytes are
// computed without the planner (the fixture is in JSON.stringify layout, which it keeps).
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { LinuxUserShell32212 } from '../../src/index.js';
import type { DemoHome } from './file-home.js';
import { appendEntry, mapOwned, ownedEntry, parseHookFile, serialize } from './hook-file.js';
import type { Cli } from './lifecycle.js';

const LAYOUT = { indent: '\t', eol: '\r\n' };
const FOREIGN_HOOK = { command: './hooks/lint-changed-files.sh', timeout: 15 };

export interface FileStep {
  readonly name: string;
  /** What the user or another tool did to the file before the command, if anything. */
  readonly edit: string | null;
  readonly args: readonly string[];
  readonly exitCode: number;
  /** The operation's status, or the status command's owned state. */
  readonly outcome: string;
  /** The unified diff the command printed ('' when none). */
  readonly diff: string;
  /** The refusal or failure, as `message [reason]`; null on success. */
  readonly error: string | null;
  readonly ledger: string | null;
  /** `status` (readable) after the step. */
  readonly status: string;
  readonly failures: string[];
}

interface Script {
  readonly name: string;
  readonly edit?: { readonly says: string; readonly write: (text: string) => string };
  readonly command: string;
  readonly extra?: readonly string[];
  readonly exitCode: number;
  readonly outcome: string;
  readonly reason?: string;
  /** The hook file's exact text after the step. */
  readonly after: string;
  readonly nextStep: string;
}

/** The POSIX contract's rendering of the five tokens, for paths without an apostrophe. */
function command(spec: { executable: string; selector: string }): string {
  const tokens = [spec.executable, 'cursor-event', 'stop', '--binding', spec.selector];
  if (tokens.some((token) => token.includes("'"))) throw new Error('demo paths hold an apostrophe');
  return tokens.map((token) => `'${token}'`).join(' ');
}

/** The whole scripted run; each step is checked, and a mismatch is recorded, not thrown. */
export async function runFileLifecycle(cli: Cli, home: DemoHome): Promise<FileStep[]> {
  const render = (
    text: string,
    map: (file: ReturnType<typeof parseHookFile>) => ReturnType<typeof parseHookFile>,
  ) => serialize(map(parseHookFile(text)), LAYOUT);
  const original = home.original;
  const installCommand = command(home.spec);
  const updateCommand = command(home.updatedSpec);
  const installed = render(original, (f) => appendEntry(f, 'stop', ownedEntry(installCommand)));
  const edited = render(installed, (f) => appendEntry(f, 'afterFileEdit', FOREIGN_HOOK));
  const updated = render(edited, (f) =>
    mapOwned(f, installCommand, () => ownedEntry(updateCommand)),
  );
  const deleted = render(updated, (f) => mapOwned(f, updateCommand, () => undefined));
  const tampered = render(updated, (f) =>
    mapOwned(f, updateCommand, (e) => ({ ...e, timeout: 10 })),
  );
  const spec = (s: { executable: string; selector: string }) => [
    '--executable',
    s.executable,
    '--selector',
    s.selector,
    '--shell',
    LinuxUserShell32212,
  ];

  const script: Script[] = [
    {
      name: 'status of a fresh home',
      command: 'status',
      exitCode: 0,
      outcome: 'not-installed',
      after: original,
      nextStep: 'install',
    },
    {
      name: 'install, dry run: the diff, and nothing written',
      command: 'install',
      extra: [...spec(home.spec), '--dry-run'],
      exitCode: 0,
      outcome: 'dry-run',
      after: original,
      nextStep: 'install',
    },
    {
      name: 'install through the symlink',
      command: 'install',
      extra: spec(home.spec),
      exitCode: 0,
      outcome: 'done',
      after: installed,
      nextStep: 'none',
    },
    {
      name: 'install again: a no-op',
      command: 'install',
      extra: spec(home.spec),
      exitCode: 0,
      outcome: 'no-op',
      after: installed,
      nextStep: 'none',
    },
    {
      name: 'a foreign edit elsewhere is fine',
      edit: { says: 'another tool adds an afterFileEdit hook', write: () => edited },
      command: 'status',
      exitCode: 0,
      outcome: 'remainder-drift',
      after: edited,
      nextStep: 'refresh',
    },
    {
      name: 'update to a new selector',
      command: 'update',
      extra: spec(home.updatedSpec),
      exitCode: 0,
      outcome: 'done',
      after: updated,
      nextStep: 'none',
    },
    {
      name: 'a hand edit of the owned entry is refused',
      edit: { says: "the user changes the owned entry's timeout to 10", write: () => tampered },
      command: 'repair',
      exitCode: 1,
      outcome: 'refused',
      reason: 'owner-modified',
      after: tampered,
      nextStep: 'release',
    },
    {
      name: 'the user deletes the entry by hand: install is refused',
      edit: { says: 'the user deletes the owned entry, and nothing else', write: () => deleted },
      command: 'install',
      extra: spec(home.updatedSpec),
      exitCode: 1,
      outcome: 'refused',
      reason: 'owner-absent',
      after: deleted,
      nextStep: 'repair',
    },
    {
      name: 'repair puts it back',
      command: 'repair',
      exitCode: 0,
      outcome: 'done',
      after: updated,
      nextStep: 'none',
    },
    {
      name: 'remove',
      command: 'remove',
      exitCode: 0,
      outcome: 'done',
      after: deleted,
      nextStep: 'install',
    },
    {
      name: 'remove again: a no-op',
      command: 'remove',
      exitCode: 0,
      outcome: 'no-op',
      after: deleted,
      nextStep: 'install',
    },
  ];

  const steps: FileStep[] = [];
  for (const item of script) {
    if (item.edit !== undefined)
      writeFileSync(home.hooks, item.edit.write(readFileSync(home.hooks, 'utf8')));
    const before = readFileSync(home.hooks, 'utf8');
    const ledgerBefore = readLedger(home);
    const args = [
      item.command,
      '--hooks-file',
      home.hooks,
      '--ledger',
      home.ledger,
      ...(item.extra ?? []),
    ];
    const outcome = await cli([...args, '--json'], '');
    const failures: string[] = [];
    const check = (ok: boolean, expectation: string) => {
      if (!ok) failures.push(`expected: ${expectation}`);
    };
    const result = parse(outcome.stdout);
    const after = readFileSync(home.hooks, 'utf8');
    check(
      outcome.exitCode === item.exitCode,
      `exit code ${item.exitCode} (got ${outcome.exitCode})`,
    );
    const got = item.command === 'status' ? result?.owned?.state : result?.status;
    check(got === item.outcome, `outcome ${item.outcome} (got ${String(got)})`);
    check(result?.error?.reason === item.reason, `refusal reason ${item.reason ?? 'none'}`);
    check(after === item.after, 'the hook file holds exactly the scripted bytes');
    check(lstatSync(home.hooks).isSymbolicLink(), '~/.cursor/hooks.json is still a symlink');
    if (item.outcome === 'dry-run' || item.command === 'status' || item.exitCode !== 0) {
      check(after === before && readLedger(home) === ledgerBefore, 'nothing was written');
    }
    const status = await cli(['status', '--hooks-file', home.hooks, '--ledger', home.ledger], '');
    const next = /\nnext step: ([a-z-]+):/.exec(status.stdout)?.[1];
    check(
      status.exitCode === 0 && next === item.nextStep,
      `next step ${item.nextStep} (got ${String(next)})`,
    );
    steps.push({
      name: item.name,
      edit: item.edit?.says ?? null,
      args,
      exitCode: outcome.exitCode,
      outcome: String(got),
      diff: typeof result?.diff === 'string' ? result.diff : '',
      error: result?.error ? `${result.error.message} [${result.error.reason}]` : null,
      ledger: readLedger(home),
      status: status.stdout,
      failures,
    });
  }
  return steps;
}

interface Parsed {
  readonly status?: string;
  readonly owned?: { readonly state?: string };
  readonly diff?: unknown;
  readonly error?: { readonly reason?: string; readonly message?: string } | null;
}

function parse(stdout: string): Parsed | undefined {
  try {
    return JSON.parse(stdout) as Parsed;
  } catch {
    return undefined;
  }
}

function readLedger(home: DemoHome): string | null {
  return existsSync(home.ledger) ? readFileSync(home.ledger, 'utf8') : null;
}
