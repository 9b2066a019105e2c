// Start-up of the file-level commands against a bare `node -e 0` (paired runs in the clean
// environment, median ratio, as group 7): `status` and both `install --dry-run` calls at most
// 1.2×, a real `install` (lock, temporary file, fsyncs, rename, ledger) at most 1.3×, and
// `qualify finish` (which writes its record) at most 2× (issue 38). Everything happens in a
// temporary directory.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinuxUserShell32212 } from '../../src/index.js';
import { record } from '../shell/records.js';
import { userFile } from './documents.js';
import type { Cell, GroupReport, Target } from './report.js';
import {
  type Call,
  CLEAN_ENV_NOTE,
  CLI,
  COLUMNS,
  LOADS_NOTE,
  ROUNDS,
  startupRow,
  TARGET,
  time,
} from './startup.js';

export interface Fixture {
  readonly dir: string;
  readonly hooks: string;
  readonly ledger: string;
  readonly hookSpec: { readonly executable: string; readonly selector: string };
  /** The spec and shell as CLI options. */
  readonly spec: readonly string[];
}

/** A home-like directory with a realistic hooks.json, an executable and a selector. */
export function fixture(root: string, name: string): Fixture {
  const dir = join(root, name);
  mkdirSync(join(dir, '.cursor'), { recursive: true });
  const executable = join(dir, 'agent');
  writeFileSync(executable, '#!/bin/sh\n');
  chmodSync(executable, 0o755);
  const selector = join(dir, 'stop.json');
  writeFileSync(selector, '{}\n');
  const hooks = join(dir, '.cursor', 'hooks.json');
  writeFileSync(hooks, userFile());
  return {
    dir,
    hooks,
    ledger: join(dir, 'ledger.json'),
    hookSpec: { executable, selector },
    spec: ['--executable', executable, '--selector', selector, '--shell', LinuxUserShell32212],
  };
}

/**
 * A qualification whose probe Cursor has just fired, made again before each round with the built
 * CLI: `qualify start`, then the probe's command run the way Cursor runs it.
 */
function firedProbe(root: string): { stateDir: string; out: string; prepare: () => void } {
  const home = join(root, 'probe home');
  const hooks = join(home, '.cursor', 'hooks.json');
  const stateDir = join(home, 'state');
  const out = join(home, 'record.json');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  const prepare = () => {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(out, { force: true });
    writeFileSync(hooks, userFile());
    const args = ['qualify', 'start', '--state-dir', stateDir, '--hooks-file', hooks];
    const started = spawnSync(process.execPath, [
      CLI,
      ...args,
      '--family',
      'posix-single-quote',
      '--json',
    ]);
    const { command } = JSON.parse(started.stdout.toString('utf8')).probe;
    const payload = '{"hook_event_name":"stop","status":"completed","cursor_version":"3.24.0"}';
    spawnSync('/bin/sh', ['-c', command], { cwd: join(home, '.cursor'), input: payload });
  };
  return { stateDir, out, prepare };
}

/** The contract the record of test/shell/records.ts qualifies. */
const RECORD_ID = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';

/** A real write pays for the lock, the fsyncs and the rename on top of a read-only call. */
export const WRITE_TARGET = 1.3;
/** qualify finish reads the probe's state and writes its record: more work than one install. */
export const QUALIFY_FINISH_TARGET = 2;

const INSTALL_FLOOR = fileURLToPath(new URL('./floors/install.cjs', import.meta.url));
const files = (f: Fixture) => ['--hooks-file', f.hooks, '--ledger', f.ledger];

export function fileCommands(): GroupReport {
  // startup() (group 7) builds dist/cli.cjs from the current sources first; it runs before this.
  const root = mkdtempSync(join(tmpdir(), 'cursorhooks-bench-'));
  try {
    const installed = fixture(root, 'installed');
    time([CLI, 'install', ...files(installed), ...installed.spec], '');
    const fresh = fixture(root, 'fresh');
    const writing = fixture(root, 'writing');
    const contractFile = join(root, 'record.json');
    writeFileSync(contractFile, JSON.stringify(record()));
    const { executable, selector } = fresh.hookSpec;
    const probe = firedProbe(root);
    // Each round installs into the untouched user file with an empty ledger.
    const freshInstall = () => {
      writeFileSync(writing.hooks, userFile());
      rmSync(writing.ledger, { force: true });
    };
    const qualified = ['--executable', executable, '--selector', selector, '--shell', RECORD_ID];
    // One row per call; a new command's call (e.g. qualify finish) is one more entry.
    const calls: Call[] = [
      { label: 'status', args: ['status', ...files(installed)], stdin: '', target: TARGET },
      {
        label: 'install --dry-run',
        args: ['install', ...files(fresh), ...fresh.spec, '--dry-run'],
        stdin: '',
        target: TARGET,
      },
      {
        label: 'install --contract-file --dry-run',
        args: [
          'install',
          ...files(fresh),
          ...qualified,
          '--contract-file',
          contractFile,
          '--dry-run',
        ],
        stdin: '',
        target: TARGET,
      },
      {
        label: 'qualify finish (real write)',
        args: ['qualify', 'finish', '--state-dir', probe.stateDir, '--out', probe.out],
        stdin: '',
        target: QUALIFY_FINISH_TARGET,
        // Each round finishes a fresh probe that the recorder has just recorded.
        prepare: () => probe.prepare(),
      },
      {
        label: 'install (real write)',
        args: ['install', ...files(writing), ...writing.spec],
        stdin: '',
        target: WRITE_TARGET,
        prepare: freshInstall,
      },
      {
        label: "floor: install's durable writes, no kit",
        args: [writing.hooks, writing.ledger],
        stdin: '',
        floor: INSTALL_FLOOR,
        prepare: freshInstall,
      },
    ];
    const rows: Cell[][] = [];
    const targets: Target[] = [];
    for (const call of calls) {
      process.stderr.write(`  measuring ${call.label}\n`);
      const { row, target } = startupRow('file commands', call);
      rows.push(row);
      if (target !== undefined) targets.push(target);
    }
    return {
      tables: [
        {
          title: `8. File-level commands: built CLI vs a bare node -e 0 (${ROUNDS} paired runs each)`,
          notes: [
            'a 2 KB user hooks.json in a temporary directory; the real install takes the lock,',
            'writes and fsyncs a temporary file, renames it, fsyncs the directory and the ledger',
            "the floor row: test/bench/floors/install.cjs makes the real install's seven fsyncs, links and renames with no kit",
            CLEAN_ENV_NOTE,
            LOADS_NOTE,
          ],
          columns: COLUMNS,
          rows,
        },
      ],
      targets,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
