// Issue 11, start-up of the file-level commands: `status` and `install --dry-run` at most 1.5× a
// bare `node -e 0` (paired runs, median ratio, as group 7); a real `install` (lock, temporary
// file, fsyncs, rename, ledger) is reported only. Everything happens in a temporary directory.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinuxUserShell32212 } from '../../src/index.js';
import { userFile } from './documents.js';
import { type GroupReport, ms, type Target, times } from './report.js';
import { type Call, CLI, measure, ROUNDS, TARGET, time } from './startup.js';

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

const files = (f: Fixture) => ['--hooks-file', f.hooks, '--ledger', f.ledger];

export function fileCommands(): GroupReport {
  // startup() (group 7) builds dist/cli.js from the current sources first; it runs before this.
  const root = mkdtempSync(join(tmpdir(), 'cursorhooks-bench-'));
  try {
    const installed = fixture(root, 'installed');
    time([CLI, 'install', ...files(installed), ...installed.spec], '');
    const fresh = fixture(root, 'fresh');
    const writing = fixture(root, 'writing');
    const calls: (Call & { readonly target: boolean })[] = [
      { label: 'status', args: ['status', ...files(installed)], stdin: '', target: true },
      {
        label: 'install --dry-run',
        args: ['install', ...files(fresh), ...fresh.spec, '--dry-run'],
        stdin: '',
        target: true,
      },
      {
        label: 'install (real write)',
        args: ['install', ...files(writing), ...writing.spec],
        stdin: '',
        target: false,
        // Each round installs into the untouched user file with an empty ledger.
        prepare: () => {
          writeFileSync(writing.hooks, userFile());
          rmSync(writing.ledger, { force: true });
        },
      },
    ];
    const rows: (string | number)[][] = [];
    const targets: Target[] = [];
    for (const call of calls) {
      process.stderr.write(`  measuring ${call.label}\n`);
      const { bare, cli, ratio } = measure(call);
      rows.push([call.label, ms(bare), ms(cli), times(ratio)]);
      targets.push({
        group: 'file commands',
        name: `cursorhooks ${call.label} vs node -e 0`,
        goal: call.target ? `≤ ${TARGET}×` : 'reported',
        measured: times(ratio),
        pass: call.target ? ratio <= TARGET : undefined,
      });
    }
    return {
      tables: [
        {
          title: `8. File-level commands: built CLI vs a bare node -e 0 (${ROUNDS} paired runs each)`,
          notes: [
            'a 2 KB user hooks.json in a temporary directory; the real install takes the lock,',
            'writes and fsyncs a temporary file, renames it, fsyncs the directory and the ledger',
          ],
          columns: ['command', 'node -e 0', 'cursorhooks', 'ratio'],
          rows,
        },
      ],
      targets,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
