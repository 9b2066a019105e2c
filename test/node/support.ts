// Shared helpers for the host kit tests: temporary directories (never the real home), a seam
// wrapper that injects errno failures, and byte helpers.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { type HookSpec, Operation, plan } from '../../src/index.js';
import type { HostIOError } from '../../src/node/errors.js';
import { decodeLedger, type LedgerRecord, readLedger } from '../../src/node/ledger/ledger.js';
import {
  type OperationOptions,
  type OperationOutcome,
  runOperation,
} from '../../src/node/run-operation.js';
import type { HostPathChecker } from '../../src/node/status/path-report.js';
import { writeHookFile } from '../../src/node/write/cas-write.js';
import type { FsSeam } from '../../src/node/write/fs-seam.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { SHELL, SPEC } from '../planner/support.js';

const made: string[] = [];

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-node-'));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Names in `dir` other than the given ones: side files a run left behind. */
export function strays(dir: string, ...expected: string[]): string[] {
  return readdirSync(dir).filter((name) => !expected.includes(name));
}

export type SeamCall = keyof FsSeam;

/** A system error as Node raises it. */
export function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/**
 * The real seam with `before` run ahead of every call: it may throw (an injected failure) or
 * record the call. `before` sees the call's name, the path it is about (the first argument, or
 * for a call on an open file the path that file was opened by) and the call's arguments.
 */
export function wrapSeam(
  before: (call: SeamCall, path: string | undefined, args: readonly unknown[]) => void,
): FsSeam {
  const opened = new WeakMap<object, string>();
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(nodeFs)) {
    wrapped[name] = async (...args: unknown[]) => {
      const [first] = args;
      const path = typeof first === 'string' ? first : opened.get(first as object);
      before(name as SeamCall, path, args);
      const result = await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      if (name === 'open' && typeof first === 'string') opened.set(result as object, first);
      return result;
    };
  }
  return wrapped as unknown as FsSeam;
}

/** A seam whose `call` fails with `code` (on paths matching `where`, if given). */
export function failing(call: SeamCall, code: string, where?: (path: string) => boolean): FsSeam {
  return wrapSeam((name, path) => {
    if (name === call && (where === undefined || (path !== undefined && where(path)))) {
      throw errno(code);
    }
  });
}

/** Our data temp files, not the lock's staging files. */
export const isDataTemp = (path: string): boolean =>
  path.endsWith('.tmp') && !path.includes('.cursorhooks-lock-');

export const text = (value: string): Uint8Array => new TextEncoder().encode(value);
export const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Host path checkers: one that passed every check, one that failed one. */
export const allChecksPassed: HostPathChecker = async () => ({ verified: true, checks: [] });
export const oneCheckFailed: HostPathChecker = async (spec) => ({
  verified: false,
  checks: [
    {
      role: 'executable',
      check: 'executable-bit',
      status: 'failed',
      path: spec.executable,
      detail: 'the executable has no execute bit for its owner',
    },
  ],
});

/** `count` specs of different owners, with spaces in their paths, for the multi-process tests. */
export function ownerSpecs(count: number): HookSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    executable: `/opt/agent bin/agent-${i}`,
    selector: `/home/u/binding-${i}.json`,
  }));
}

/** A hook file and a ledger in a fresh temporary directory. */
export function workspace(): { dir: string; hooks: string; ledger: string } {
  const dir = tempDir();
  return { dir, hooks: join(dir, 'hooks.json'), ledger: join(dir, 'ledger.json') };
}

export type Where = ReturnType<typeof workspace>;

/** The ledger's record of the workspace's hook file. */
export const recordOf = async (where: Where): Promise<LedgerRecord> =>
  (await readLedger(where.ledger)).records.get(where.hooks) as LedgerRecord;

/** A workspace whose hook file held `foreign` before the owned entry was installed, and its text after. */
export async function installedWorkspace(foreign: string): Promise<Where & { document: string }> {
  const where = workspace();
  writeFileSync(where.hooks, foreign);
  expect((await operate(where, Operation.Install)).status).toBe('done');
  return { ...where, document: readFileSync(where.hooks, 'utf8') };
}

/** The HostIOError `promise` rejects with; the test fails when it resolves or rejects otherwise. */
export async function hostFailure(promise: Promise<unknown>): Promise<HostIOError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // By name: a fresh import of a module (for its constants) has its own HostIOError class.
  expect((err as Error | undefined)?.name).toBe('HostIOError');
  return err as HostIOError;
}

/** `runOperation` with the test spec and shell, all checks passed, overridable (spec null: none). */
export function operate(
  where: { hooks: string; ledger: string },
  operation: Operation,
  overrides: Omit<Partial<OperationOptions>, 'spec'> & { spec?: HookSpec | null } = {},
): Promise<OperationOutcome> {
  const { spec = SPEC, ...rest } = overrides;
  return runOperation({
    operation,
    hooksFile: where.hooks,
    ledger: where.ledger,
    ...(spec === null ? {} : { spec }),
    shell: SHELL,
    checkHostPaths: allChecksPassed,
    ...rest,
  });
}

/**
 * `record` as a crash in the middle of an Update of `document` to `spec` leaves it (the Update
 * recorded as pending), and the bytes that Update writes.
 */
export function pendingUpdate(
  record: LedgerRecord,
  document: Uint8Array,
  spec: HookSpec,
): { record: LedgerRecord; after: Uint8Array } {
  const update = plan({
    document,
    operation: Operation.Update,
    specs: [spec],
    shell: SHELL,
    previous: record.receipt,
    executableVerified: true,
  });
  const intended = update.receipt?.toJSON() ?? null;
  return {
    record: {
      ...record,
      pending: {
        operation: Operation.Update,
        intended,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
    },
    after: update.desired,
  };
}

/** writeHookFile of `desired` over what `path` holds now; resolves to its error, or undefined. */
export async function swapError(
  path: string,
  desired: Uint8Array,
  fs: FsSeam = nodeFs,
): Promise<unknown> {
  const expected = await readFileSnapshot(path);
  return writeHookFile(path, expected, desired, { fs }).then(
    () => undefined,
    (err: unknown) => err,
  );
}

/** The reason decoding `bytes` as a ledger is refused with; undefined when they decode. */
export function ledgerRefusal(bytes: Uint8Array): string | undefined {
  try {
    decodeLedger(bytes);
    return undefined;
  } catch (err) {
    return (err as { reason?: string }).reason;
  }
}
