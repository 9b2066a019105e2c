// Shared set-up for the file-level command tests: a temporary home with a real executable and
// selector (so the CLI's own host path checks pass), and the CLI run in-process on it.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { OperationResultJSON } from '../../src/cli/file/operation-result.js';
import type { HookSpec } from '../../src/index.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { tempDir } from '../node/support.js';
import { cli, SHELL } from './support.js';

/** A home directory (never the real one) with `.cursor/`, an agent executable and selectors. */
export interface Home {
  readonly dir: string;
  readonly hooks: string;
  readonly ledger: string;
  readonly spec: HookSpec;
  /** A second spec, for update. */
  readonly otherSpec: HookSpec;
}

export function home(): Home {
  const dir = tempDir();
  mkdirSync(join(dir, '.cursor'));
  const bin = join(dir, 'agent bin');
  mkdirSync(bin);
  const executable = join(bin, 'agent-notify');
  writeFileSync(executable, '#!/bin/sh\nexit 0\n');
  chmodSync(executable, 0o755);
  for (const name of ['stop.json', 'stop-v2.json']) writeFileSync(join(bin, name), '{}\n');
  return {
    dir,
    hooks: join(dir, '.cursor', 'hooks.json'),
    ledger: join(dir, 'ledger.json'),
    spec: { executable, selector: join(bin, 'stop.json') },
    otherSpec: { executable, selector: join(bin, 'stop-v2.json') },
  };
}

/** A hooks.json another tool wrote: tabs, CRLF, a foreign stop hook and another event. */
export const FOREIGN_CRLF = [
  '{',
  '\t"version": 1,',
  '\t"hooks": {',
  '\t\t"stop": [',
  '\t\t\t{ "command": "./hooks/audit.sh", "timeout": 10 }',
  '\t\t],',
  '\t\t"afterFileEdit": [{ "command": "./hooks/format.sh" }]',
  '\t}',
  '}',
  '',
].join('\r\n');

export function writeHooks(where: Home, text: string | Uint8Array = FOREIGN_CRLF): void {
  writeFileSync(where.hooks, text);
}

export const readHooks = (where: Home): string => readFileSync(where.hooks, 'utf8');

/** `--hooks-file` and `--ledger` of `where`. */
export const files = (where: Home): string[] => [
  '--hooks-file',
  where.hooks,
  '--ledger',
  where.ledger,
];

/** The spec options for `spec` through the Linux contract. */
export const specArgs = (spec: HookSpec): string[] => [
  '--executable',
  spec.executable,
  '--selector',
  spec.selector,
  '--shell',
  SHELL,
];

/** Runs a file-level command on `where`, with `--json`. */
export function fileCli(command: string, where: Home, ...more: string[]): Promise<CliOutcome> {
  return cli([command, ...files(where), ...more, '--json']);
}

export const install = (where: Home, ...more: string[]) =>
  fileCli('install', where, ...specArgs(where.spec), ...more);

/** The JSON result of install, update, remove and repair, as the CLI declares it. */
export type OperationResult = OperationResultJSON;

/**
 * The result on stdout and, when it failed, the one error on stderr, which must be the result's
 * own error: exit `exitCode`.
 */
export function result(outcome: CliOutcome, exitCode: number): OperationResult {
  expect(outcome.exitCode, outcome.stderr).toBe(exitCode);
  const parsed = JSON.parse(outcome.stdout) as OperationResult;
  if (exitCode === 0) {
    expect(outcome.stderr).toBe('');
    expect(parsed.error).toBeNull();
  } else {
    expect(JSON.parse(outcome.stderr)).toEqual({ error: parsed.error });
  }
  return parsed;
}

/** Bytes and modification time, to show a run wrote nothing. */
export function fingerprint(path: string): { bytes: string; mtimeNs: bigint } {
  return {
    bytes: readFileSync(path).toString('base64'),
    mtimeNs: statSync(path, { bigint: true }).mtimeNs,
  };
}
