import { readFile } from 'node:fs/promises';
import type { ReceiptJSON } from '../../src/index.js';
import {
  appendEntry,
  type HookFile,
  mapOwned,
  ownedEntry,
  parseHookFile,
  serialize,
} from './hook-file.js';
import type { Contract, Fixture, Scenario } from './scenarios.js';

/** Runs the cursorhooks CLI once: the built binary in the demo, `run` in-process in tests. */
export type Cli = (args: readonly string[], stdin: string | Uint8Array) => Promise<CliOutcome>;

export interface CliOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI's one error shape, printed on stderr by every failing run. */
export interface ErrorOutput {
  readonly kind: string;
  readonly reason: string;
  readonly message: string;
}

/** One scripted step: what the document was, what the CLI made of it, what went unexpected. */
export interface Step {
  readonly name: string;
  /** The scripted foreign edit made before the CLI ran, if any. */
  readonly edit: string | null;
  /** The CLI invocation, for display. */
  readonly command: string;
  readonly exitCode: number;
  readonly before: string;
  readonly after: string;
  /** The receipt `plan` printed; undefined for `verify`, which prints none. */
  readonly receipt: ReceiptJSON | null | undefined;
  readonly error: ErrorOutput | null;
  /** Expectations that did not hold; empty when the step went as scripted. */
  readonly failures: string[];
}

export interface Lifecycle {
  readonly contract: Contract;
  readonly fixture: Fixture;
  readonly steps: readonly Step[];
}

interface PlanOutput {
  readonly desired: string;
  readonly receipt: ReceiptJSON | null;
  readonly noOp: boolean;
}

/** A `plan` request without its document, as the script writes it. */
interface PlanRequestJSON {
  readonly operation: string;
  readonly [field: string]: unknown;
}

interface Expected {
  readonly exitCode: number;
  readonly noOp: boolean;
  readonly desired: string;
  /** The refusal reason; absent when the plan must succeed. */
  readonly reason?: string;
}

const ROOT = new URL('../../', import.meta.url);
const FOREIGN_HOOK = { command: './hooks/lint-changed-files.sh', timeout: 15 };
const TAMPERED_TIMEOUT = 10;

/** Runs the scenarios concurrently; each lifecycle is itself sequential. */
export function runLifecycles(cli: Cli, scenarios: readonly Scenario[]): Promise<Lifecycle[]> {
  return Promise.all(
    scenarios.map(({ contract, fixture }) => runLifecycle(cli, contract, fixture)),
  );
}

/**
 * Install → install again → foreign edit → update → tampered entry → remove → repair, for one
 * contract over one fixture. Every document is checked against bytes computed without the
 * planner (the fixtures are in JSON.stringify layout, which the planner must keep), and every
 * mismatch is recorded on its step.
 */
export async function runLifecycle(
  cli: Cli,
  contract: Contract,
  fixture: Fixture,
): Promise<Lifecycle> {
  const { layout } = fixture;
  const steps: Step[] = [];
  const original = await readFile(new URL(fixture.path, ROOT), 'utf8');
  const base = parseHookFile(original);
  const render = (file: HookFile) => serialize(file, layout);
  const verified = { shell: contract.shell, executableVerified: true };
  const installed = render(appendEntry(base, 'stop', ownedEntry(contract.installCommand)));

  const install = await planStep(cli, 'install into the user file', original, null, {
    request: { operation: 'install', specs: [contract.spec], ...verified },
    expected: { exitCode: 0, noOp: false, desired: installed },
  });
  check(install, render(base) === original, 'the fixture is in JSON.stringify layout');
  checkReceipt(install, contract, contract.spec.selector);
  steps.push(install);
  const installReceipt = install.receipt;

  const again = await planStep(cli, 'install again with the receipt', installed, null, {
    request: {
      operation: 'install',
      specs: [contract.spec],
      previous: installReceipt,
      ...verified,
    },
    expected: { exitCode: 0, noOp: true, desired: installed },
  });
  check(again, sameJSON(again.receipt, installReceipt), 'the receipt is unchanged');
  steps.push(again);

  const edited = render(appendEntry(parseHookFile(installed), 'afterFileEdit', FOREIGN_HOOK));
  const verify = await verifyStep(cli, installed, edited, installReceipt);
  steps.push(verify);

  const updatedSpec = { executable: contract.spec.executable, selector: contract.updatedSelector };
  const updated = render(
    mapOwned(parseHookFile(edited), contract.installCommand, () =>
      ownedEntry(contract.updateCommand),
    ),
  );
  const update = await planStep(cli, 'update to a new selector path', edited, null, {
    request: { operation: 'update', specs: [updatedSpec], previous: installReceipt, ...verified },
    expected: { exitCode: 0, noOp: false, desired: updated },
  });
  checkReceipt(update, contract, contract.updatedSelector);
  steps.push(update);
  const updateReceipt = update.receipt;

  const tampered = render(
    mapOwned(parseHookFile(updated), contract.updateCommand, (entry) => ({
      ...entry,
      timeout: TAMPERED_TIMEOUT,
    })),
  );
  const tamper = await planStep(
    cli,
    'repair a tampered owned entry (refused; this copy is then discarded)',
    updated,
    `a user changes the owned entry's timeout to ${TAMPERED_TIMEOUT}`,
    {
      request: { operation: 'repair', previous: updateReceipt, executableVerified: true },
      expected: { exitCode: 1, noOp: true, desired: tampered, reason: 'owner-modified' },
    },
    tampered,
  );
  check(tamper, tamper.error?.kind === 'conflict', 'the refusal is a bare conflict');
  steps.push(tamper);

  const removed = render(mapOwned(parseHookFile(edited), contract.installCommand, () => undefined));
  const remove = await planStep(cli, 'remove the owned entry', updated, null, {
    request: { operation: 'remove', previous: updateReceipt },
    expected: { exitCode: 0, noOp: false, desired: removed },
  });
  steps.push(remove);

  const repair = await planStep(cli, 'repair after the removal', removed, null, {
    request: { operation: 'repair', previous: updateReceipt, executableVerified: true },
    expected: { exitCode: 0, noOp: false, desired: updated },
  });
  check(repair, sameJSON(repair.receipt, updateReceipt), 'the receipt matches the update');
  steps.push(repair);

  return { contract, fixture, steps };
}

/** Runs `plan` on `input` (default `before`) and checks the result against `expected`. */
async function planStep(
  cli: Cli,
  name: string,
  before: string,
  edit: string | null,
  { request, expected }: { request: PlanRequestJSON; expected: Expected },
  input = before,
): Promise<Step> {
  const outcome = await cli(['plan'], JSON.stringify({ document: input, ...request }));
  // A refusal prints only the error, on stderr; the document stays as it was.
  const refused = outcome.exitCode !== 0;
  const output: PlanOutput = refused
    ? { desired: input, receipt: null, noOp: true }
    : parseOutput<PlanOutput>(outcome.stdout, outcome);
  const error = refused ? parseOutput<{ error: ErrorOutput }>(outcome.stderr, outcome).error : null;
  const step: Step = {
    name,
    edit,
    command: `cursorhooks plan  # operation: ${request.operation}`,
    exitCode: outcome.exitCode,
    before,
    after: output.desired,
    receipt: output.receipt,
    error,
    failures: [],
  };
  check(step, outcome.exitCode === expected.exitCode, `exit code ${expected.exitCode}`);
  check(step, output.noOp === expected.noOp, `noOp ${expected.noOp}`);
  check(step, output.desired === expected.desired, 'the planned document matches byte for byte');
  check(step, error?.reason === expected.reason, `refusal reason ${expected.reason}`);
  check(step, !refused || outcome.stdout === '', 'a refusal prints nothing on stdout');
  const removesOrRefuses = expected.reason !== undefined || request.operation === 'remove';
  check(step, (output.receipt === null) === removesOrRefuses, 'a receipt exactly when one is due');
  return step;
}

/** A foreign tool adds a hook; `verify` must still find the owned entry intact. */
async function verifyStep(
  cli: Cli,
  before: string,
  after: string,
  receipt: ReceiptJSON | null | undefined,
): Promise<Step> {
  const outcome = await cli(['verify'], JSON.stringify({ document: after, receipt }));
  const owned = outcome.exitCode === 0;
  const output = parseOutput<{ owned?: boolean; error?: ErrorOutput }>(
    owned ? outcome.stdout : outcome.stderr,
    outcome,
  );
  const step: Step = {
    name: 'a foreign edit, then verify ownership',
    edit: 'another tool adds an afterFileEdit hook',
    command: 'cursorhooks verify',
    exitCode: outcome.exitCode,
    before,
    after,
    receipt: undefined,
    error: output.error ?? null,
    failures: [],
  };
  check(step, owned && output.owned === true, 'the owned entry still verifies');
  return step;
}

function parseOutput<T>(text: string, outcome: CliOutcome): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    // Nothing later can run on unreadable output, so this ends the lifecycle.
    throw new Error(`the CLI exited ${outcome.exitCode} without JSON: ${outcome.stderr.trim()}`);
  }
}

function checkReceipt(step: Step, contract: Contract, selector: string): void {
  const { receipt } = step;
  check(
    step,
    receipt?.shell === contract.shell &&
      receipt.spec.executable === contract.spec.executable &&
      receipt.spec.selector === selector,
    'the receipt names the requested spec and shell',
  );
}

function check(step: Step, ok: boolean, expectation: string): void {
  if (!ok) step.failures.push(`expected: ${expectation}`);
}

function sameJSON(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
