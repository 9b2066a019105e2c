import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { run } from '../../src/cli/run.js';
import { type HookSpec, LinuxUserShell32212, type ReceiptJSON } from '../../src/index.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { utf8 } from '../support/common.js';

/** Runs the CLI in-process, collecting what it writes. */
export async function cli(
  args: readonly string[],
  stdin: string | Uint8Array | AsyncIterable<Uint8Array> = '',
): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const exitCode = await run(args, typeof stdin === 'string' ? utf8(stdin) : stdin, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { exitCode, stdout, stderr };
}

/** The words of a printed command line, split by /bin/sh exactly as a user's paste would be. */
export function wordsOf(line: string): string[] {
  const split = spawnSync('/bin/sh', ['-c', `set -- ${line}; printf '%s\\0' "$@"`], {
    encoding: 'utf8',
  });
  expect(split.status).toBe(0);
  return split.stdout.split('\0').slice(0, -1);
}

/** Runs a printed `cursorhooks ...` line in-process, its words split by /bin/sh. */
export function cliLine(line: string): Promise<CliOutcome> {
  const [program, ...args] = wordsOf(line);
  expect(program).toBe('cursorhooks');
  return cli(args);
}

/** `plan` with a JSON request. */
export function plan(request: unknown): Promise<CliOutcome> {
  return cli(['plan'], JSON.stringify(request));
}

export interface PlanOutput {
  readonly desired: string;
  readonly receipt: ReceiptJSON | null;
  readonly noOp: boolean;
}

/** The one error shape every failing run prints on stderr. */
export interface ErrorOutput {
  readonly kind: string;
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
  readonly option?: string;
}

/** The stdout JSON of a successful run, which wrote nothing to stderr. */
export function output<T = PlanOutput>(outcome: CliOutcome): T {
  expect(outcome.stderr).toBe('');
  expect(outcome.exitCode).toBe(0);
  return JSON.parse(outcome.stdout) as T;
}

/** The error of a failed JSON-mode run: one JSON line on stderr, nothing on stdout. */
export function failure(outcome: CliOutcome, exitCode: number): ErrorOutput {
  expect(outcome.exitCode).toBe(exitCode);
  expect(outcome.stdout).toBe('');
  expect(outcome.stderr).toMatch(/^\{[^\n]+\}\n$/);
  const { error, ...rest } = JSON.parse(outcome.stderr) as { error: ErrorOutput };
  expect(rest).toEqual({});
  return error;
}

/** A usage error in JSON mode: exit 2 with `reason` and, when given, the field or option. */
export function expectUsageError(
  outcome: CliOutcome,
  reason: string,
  subject: { field?: string; option?: string } = {},
): ErrorOutput {
  const error = failure(outcome, 2);
  expect(error).toEqual({ kind: 'usage', reason, message: expect.any(String), ...subject });
  return error;
}

export function base64(bytes: Uint8Array | string): string {
  return Buffer.from(typeof bytes === 'string' ? utf8(bytes) : bytes).toString('base64');
}

export const SHELL = LinuxUserShell32212;

/** A receipt for the result formatters: well-formed, with placeholder digests no plan makes. */
export const SAMPLE_RECEIPT: ReceiptJSON = {
  version: 1,
  event: 'stop',
  spec: { executable: '/opt/agent', selector: '/etc/stop.json' },
  shell: 'linux-user-3.22.12',
  entryDigest: `sha256:${'a'.repeat(64)}`,
  remainderDigest: `sha256:${'f'.repeat(64)}`,
};
export const SPEC: HookSpec = {
  executable: '/opt/Agent Tools/bin/agent-notify',
  selector: "/home/o'neil/bindings/stop.json",
};
export const COMMAND = `'/opt/Agent Tools/bin/agent-notify' 'cursor-event' 'stop' '--binding' '/home/o'"'"'neil/bindings/stop.json'`;
export const ENTRY = { type: 'command', command: COMMAND, timeout: 5, failClosed: false };

/** An install request for SPEC through SHELL, with the host's checks attested. */
export function installRequest(document: string | null): Record<string, unknown> {
  return { document, operation: 'install', specs: [SPEC], shell: SHELL, executableVerified: true };
}

/** A document in JSON.stringify layout, as the planner writes new files. */
export function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Whether stubbing HOME reaches os.homedir(): it reads the process environment, which a
 * worker thread's process.env does not change. StrykerJS runs Vitest in threads; tests that
 * stub HOME skip there.
 */
export const HOME_STUB_WORKS = isMainThread;

/**
 * A fresh temporary HOME for each test of the calling suite (the default hook file is found
 * through it), removed afterwards; returns a getter for its path.
 */
export function useTempHome(prefix: string): () => string {
  let home = '';
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), prefix));
    vi.stubEnv('HOME', home);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(home, { recursive: true, force: true });
  });
  return () => home;
}
