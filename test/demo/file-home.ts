// The demo's temporary home: a realistic user hooks.json (CRLF, tabs, foreign hooks) kept in a
// dotfiles folder and symlinked into ~/.cursor, as dotfile managers do, plus the agent's files.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookSpec } from '../../src/index.js';

export interface DemoHome {
  readonly dir: string;
  /** ~/.cursor/hooks.json: a symlink to `target`. */
  readonly hooks: string;
  readonly target: string;
  readonly ledger: string;
  readonly spec: HookSpec;
  readonly updatedSpec: HookSpec;
  /** The fixture's bytes, as the user had them before any install. */
  readonly original: string;
}

const FIXTURE = new URL('../../fixtures/documents/user-hooks-crlf-tabs.json', import.meta.url);

export function makeDemoHome(): DemoHome {
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-demo-'));
  const original = readFileSync(FIXTURE, 'utf8');
  const dotfiles = join(dir, 'dotfiles', 'cursor');
  mkdirSync(dotfiles, { recursive: true });
  mkdirSync(join(dir, '.cursor'));
  const target = join(dotfiles, 'hooks.json');
  writeFileSync(target, original);
  const hooks = join(dir, '.cursor', 'hooks.json');
  symlinkSync(target, hooks);
  const bin = join(dir, 'Agent Tools', 'bin');
  const bindings = join(dir, 'Agent Tools', 'bindings');
  mkdirSync(bin, { recursive: true });
  mkdirSync(bindings);
  const executable = join(bin, 'agent-notify');
  writeFileSync(executable, '#!/bin/sh\nexit 0\n');
  chmodSync(executable, 0o755);
  for (const name of ['stop.json', 'stop-v2.json']) writeFileSync(join(bindings, name), '{}\n');
  return {
    dir,
    hooks,
    target,
    ledger: join(dir, '.config', 'agent', 'cursorhooks-ledger.json'),
    spec: { executable, selector: join(bindings, 'stop.json') },
    updatedSpec: { executable, selector: join(bindings, 'stop-v2.json') },
    original,
  };
}
