// From any reachable state (a child SIGKILLed at any step of any command, then any foreign edit),
// following what status names always gets out: every output validates against its schema, no
// command status names refuses, and no state comes back once left. Only the hand edit status
// itself asks for (keep or delete an unowned entry) is ever made, and never one of the ledger.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { operationResult } from '../../src/cli/file/operation-result.js';
import { statusResult } from '../../src/cli/file/status-result.js';
import { Operation } from '../../src/index.js';
import { release } from '../../src/node/ledger/release.js';
import type { OperationOutcome } from '../../src/node/run-operation.js';
import { type HookStatus, readStatus } from '../../src/node/status/status.js';
import { expectSchema } from '../cli/schema-check.js';
import { OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import { buildChild, runChild } from './child/spawn.js';
import { operate, tempDir } from './support.js';

const FOREIGN = '{\n  "version": 1,\n  "hooks": {"stop": [{"command": "foreign"}]}\n}\n';

type Edit =
  | 'none'
  | 'elsewhere'
  | 'delete'
  | 'modify'
  | 'copy'
  | 'delete-and-elsewhere'
  | 'delete-all';

/** A foreign edit of the parsed document; the whole file is rewritten, as editors do. */
function edit(text: string, kind: Edit): string {
  if (kind === 'none') return text;
  const doc = JSON.parse(text) as { hooks?: Record<string, Record<string, unknown>[]> };
  const hooks = doc.hooks ?? {};
  doc.hooks = hooks;
  const ours = (entry: Record<string, unknown>) => String(entry.command).includes('cursor-event');
  const stop = hooks.stop ?? [];
  if (kind === 'elsewhere' || kind === 'delete-and-elsewhere') hooks.other = [{ command: 'x' }];
  if (kind === 'delete' || kind === 'delete-and-elsewhere')
    hooks.stop = stop.filter((e) => !ours(e));
  if (kind === 'modify') hooks.stop = stop.map((e) => (ours(e) ? { ...e, timeout: 9 } : e));
  if (kind === 'copy') hooks.beforeSubmitPrompt = stop.filter(ours);
  if (kind === 'delete-all') {
    for (const [event, entries] of Object.entries(hooks))
      hooks[event] = entries.filter((e) => !ours(e));
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild();
});
afterAll(() => child.dispose());

const START: Readonly<Record<Operation, 'foreign' | 'installed' | 'entry-deleted'>> = {
  install: 'foreign',
  update: 'installed',
  remove: 'installed',
  repair: 'entry-deleted',
};

const EDITS: readonly Edit[] = [
  'none',
  'elsewhere',
  'delete',
  'modify',
  'copy',
  'delete-and-elsewhere',
];
let cases = 0;

/**
 * One reachable state: `operation` killed before its `killAt`th mutating call (0: not killed),
 * then the `foreign` edit; then status is followed until nothing is left to do.
 */
async function escapes(
  root: string,
  operation: Operation,
  killAt: number,
  foreign: Edit,
): Promise<void> {
  const dir = join(root, `case-${cases++}`);
  const where = { hooks: join(dir, 'hooks.json'), ledger: join(dir, 'ledger.json') };
  mkdirSync(dir);
  writeFileSync(where.hooks, FOREIGN);
  if (START[operation] !== 'foreign') await operate(where, Operation.Install);
  if (START[operation] === 'entry-deleted') writeFileSync(where.hooks, FOREIGN);
  const spec = operation === Operation.Update ? OTHER_SPEC : SPEC;
  await runChild(child.script, { operation, ...where, spec, shell: SHELL, killAt });
  writeFileSync(where.hooks, edit(readFileSync(where.hooks, 'utf8'), foreign));

  const seen: string[] = [];
  for (let step = 0; ; step++) {
    const status = await checkedStatus(where);
    const state = `${status.owned.state}/${status.nextStep.code}/${status.ledger.pending}`;
    // Red: a command status named led back to a state already left.
    expect(seen, `${operation}@${killAt}+${foreign}: ${seen.join(' -> ')}`).not.toContain(state);
    seen.push(state);
    expect(step, seen.join(' -> ')).toBeLessThan(5);
    const { code } = status.nextStep;
    if (code === 'none') break;
    if (code === 'review-entry') {
      // The one hand edit status asks for: the user deletes the entries it lists.
      writeFileSync(where.hooks, edit(readFileSync(where.hooks, 'utf8'), 'delete-all'));
      continue;
    }
    expect(['install', 'refresh', 'repair', 'finish', 'release'], seen.join(' -> ')).toContain(
      code,
    );
    await follow(status, where);
  }
}

it('gets out of every crash × foreign edit × command by following status (red: some state strands the user or breaks a schema)', async () => {
  const root = tempDir();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.values(Operation)),
      fc.integer({ min: 0, max: 45 }),
      fc.constantFrom(...EDITS),
      (operation, killAt, foreign) => escapes(root, operation, killAt, foreign),
    ),
    { numRuns: 40, seed: 20261203 },
  );
}, 120_000);

// Every mutating step of every command, each followed by one of the foreign edits in turn: the
// sweep the property samples, made whole.
it.each(Object.values(Operation))(
  'gets out after %s is killed at every one of its mutating steps (red: one crash point strands the user)',
  async (operation) => {
    const root = tempDir();
    const steps = await mutatingSteps(root, operation);
    expect(steps).toBeGreaterThan(10);
    for (let killAt = 1; killAt <= steps; killAt++) {
      await escapes(root, operation, killAt, EDITS[killAt % EDITS.length] as Edit);
    }
  },
  240_000,
);

/** How many mutating calls a full run of `operation` makes from its start state. */
async function mutatingSteps(root: string, operation: Operation): Promise<number> {
  const dir = join(root, `count-${operation}`);
  mkdirSync(dir);
  const where = { hooks: join(dir, 'hooks.json'), ledger: join(dir, 'ledger.json') };
  writeFileSync(where.hooks, FOREIGN);
  if (START[operation] !== 'foreign') await operate(where, Operation.Install);
  if (START[operation] === 'entry-deleted') writeFileSync(where.hooks, FOREIGN);
  const spec = operation === Operation.Update ? OTHER_SPEC : SPEC;
  const full = await runChild(child.script, { operation, ...where, spec, shell: SHELL, killAt: 0 });
  return full.output?.calls ?? 0;
}

async function checkedStatus(where: { hooks: string; ledger: string }): Promise<HookStatus> {
  const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger });
  expectSchema('status-result', statusResult(status, where.ledger, null, null, null));
  return status;
}

/** Runs the command status named, with the spec it named; it must not refuse or fail. */
async function follow(status: HookStatus, where: { hooks: string; ledger: string }): Promise<void> {
  const { command } = status.nextStep;
  if (command === 'release') {
    const released = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(released.status).toBe('done');
    return;
  }
  // Where status knows no spec (nothing was ever recorded) the host gives its own, as it would.
  const given = status.nextStep.with;
  const spec = given?.spec ?? (command === Operation.Install ? SPEC : null);
  const outcome: OperationOutcome = await operate(where, command as Operation, {
    spec,
    ...(given === null ? {} : { shell: given.shell }),
  });
  expectSchema('operation-result', await operationResult(outcome, null, false));
  expect(['done', 'no-op'], `${command}: ${outcome.error?.reason}`).toContain(outcome.status);
}
