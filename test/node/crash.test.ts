// A child killed with SIGKILL before each mutating file-system call of an install, a remove, a
// disable and an enable (and of every third call of an update and of a repair, which take the
// same write path, to keep the sweep short): the hook file is always exactly the old or the new
// bytes, and the next run settles the ledger and finishes, leaving no side file.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readLedger } from '../../src/node/ledger/ledger.js';
import { OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import type { ChildJob } from './child/operate.js';
import { buildChild, runChild, runChildren } from './child/spawn.js';
import { operate, tempDir } from './support.js';

const FOREIGN = '{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}]}\n}\n';

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild();
});
afterAll(() => child.dispose());

interface Case {
  readonly dir: string;
  readonly hooks: string;
  readonly ledger: string;
}

/** What is there before the operation runs. */
type Start = 'foreign' | 'installed' | 'entry-deleted' | 'disabled';

/** Case directories with a hook file, and for the others an installed entry and its ledger. */
async function prepare(root: string, name: string, start: Start): Promise<Case> {
  const dir = join(root, name);
  mkdirSync(dir);
  const where = { dir, hooks: join(dir, 'hooks.json'), ledger: join(dir, 'ledger.json') };
  writeFileSync(where.hooks, FOREIGN);
  if (start === 'foreign') return where;
  await operate(where, Operation.Install);
  if (start === 'disabled') await operate(where, Operation.Remove, { intent: 'disable' });
  // Repair has an entry to restore: the receipt is on record, the entry is gone from the file.
  if (start === 'entry-deleted') writeFileSync(where.hooks, FOREIGN);
  return where;
}

describe.each([
  { operation: Operation.Install, start: 'foreign', spec: SPEC, stride: 1 },
  { operation: Operation.Remove, start: 'installed', spec: SPEC, stride: 1 },
  { operation: Operation.Update, start: 'installed', spec: OTHER_SPEC, stride: 3 },
  { operation: Operation.Repair, start: 'entry-deleted', spec: SPEC, stride: 3 },
  // The user's "off": the record must say disabled (or enabled) whatever step the crash hit.
  { operation: Operation.Remove, intent: 'disable', start: 'installed', spec: SPEC, stride: 1 },
  { operation: Operation.Install, intent: 'enable', start: 'disabled', spec: SPEC, stride: 1 },
] as const)('$operation $intent killed at one mutating step in $stride', (declared) => {
  const { operation, start, spec, stride } = declared;
  const intent = 'intent' in declared ? declared.intent : undefined;
  const job = (where: Case, killAt: number): ChildJob => ({
    operation,
    hooks: where.hooks,
    ledger: where.ledger,
    spec,
    shell: SHELL,
    killAt,
    ...(intent === undefined ? {} : { intent }),
  });

  it('leaves old or new bytes, then the next run settles and finishes clean, or a crash corrupts state', async () => {
    const root = tempDir();
    const reference = await prepare(root, 'reference', start);
    const old = readFileSync(reference.hooks, 'utf8');
    const full = await runChild(child.script, job(reference, 0));
    expect(full.output?.status).toBe('done');
    const done = readFileSync(reference.hooks, 'utf8');
    const finalRecord = (await readLedger(reference.ledger)).records.get(reference.hooks);
    const steps = full.output?.calls ?? 0;
    expect(steps).toBeGreaterThan(20);

    const killSteps = Array.from({ length: steps }, (_, i) => i + 1).filter(
      (step) => step % stride === 0,
    );
    const cases = await Promise.all(killSteps.map((step) => prepare(root, `kill-${step}`, start)));
    const results = await runChildren(
      child.script,
      cases.map((where, i) => job(where, killSteps[i] ?? 0)),
      4,
    );
    const settled = new Set<string | undefined>();
    for (const [i, where] of cases.entries()) {
      const step = `step ${killSteps[i]}`;
      // Red: a kill at this step did not kill, or left bytes that are neither state.
      expect(results[i]?.signal, step).toBe('SIGKILL');
      expect([old, done], step).toContain(readFileSync(where.hooks, 'utf8'));

      const next = await operate(where, operation, {
        spec,
        ...(intent === undefined ? {} : { intent }),
      });
      settled.add(next.settled);
      expect(['done', 'no-op'], `${step}: ${next.error?.reason}`).toContain(next.status);
      expect(readFileSync(where.hooks, 'utf8'), step).toBe(done);
      const record = (await readLedger(where.ledger)).records.get(where.hooks);
      expect(record, step).toEqual(finalRecord);
      expect(readdirSync(where.dir).sort(), step).toEqual(['hooks.json', 'ledger.json']);
    }
    // Red: some crash point left a pending record that was not rolled forward, or one not back.
    expect(settled).toEqual(new Set([undefined, 'forward', 'back']));
  });
});
