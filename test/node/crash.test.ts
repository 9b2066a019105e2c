// A child killed with SIGKILL before each mutating file-system call of an install and of a
// remove: the hook file is always exactly the old or the new bytes, and the next run settles the
// ledger and finishes, leaving no side file.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readLedger } from '../../src/node/ledger.js';
import { SHELL, SPEC } from '../planner/support.js';
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

/** Case directories with a hook file (and, for remove, an installed entry and its ledger). */
async function prepare(root: string, name: string, installed: boolean): Promise<Case> {
  const dir = join(root, name);
  mkdirSync(dir);
  const where = { dir, hooks: join(dir, 'hooks.json'), ledger: join(dir, 'ledger.json') };
  writeFileSync(where.hooks, FOREIGN);
  if (installed) await operate(where, Operation.Install);
  return where;
}

function job(where: Case, operation: Operation, killAt: number): ChildJob {
  return { operation, hooks: where.hooks, ledger: where.ledger, spec: SPEC, shell: SHELL, killAt };
}

describe.each([
  [Operation.Install, false],
  [Operation.Remove, true],
] as const)('%s killed at every step', (operation, installed) => {
  it('leaves old or new bytes, then the next run settles and finishes clean, or a crash corrupts state', async () => {
    const root = tempDir();
    const reference = await prepare(root, 'reference', installed);
    const old = readFileSync(reference.hooks, 'utf8');
    const full = await runChild(child.script, job(reference, operation, 0));
    expect(full.output?.status).toBe('done');
    const done = readFileSync(reference.hooks, 'utf8');
    const finalRecord = (await readLedger(reference.ledger)).records.get(reference.hooks);
    const steps = full.output?.calls ?? 0;
    expect(steps).toBeGreaterThan(20);

    const cases = await Promise.all(
      Array.from({ length: steps }, (_, i) => prepare(root, `kill-${i + 1}`, installed)),
    );
    const results = await runChildren(
      child.script,
      cases.map((where, i) => job(where, operation, i + 1)),
      4,
    );
    const settled = new Set<string | undefined>();
    for (const [i, where] of cases.entries()) {
      // Red: a kill at step i+1 did not kill, or left bytes that are neither state.
      expect(results[i]?.signal, `step ${i + 1}`).toBe('SIGKILL');
      expect([old, done], `step ${i + 1}`).toContain(readFileSync(where.hooks, 'utf8'));

      const next = await operate(where, operation);
      settled.add(next.settled);
      expect(['done', 'no-op'], `step ${i + 1}: ${next.error?.reason}`).toContain(next.status);
      expect(readFileSync(where.hooks, 'utf8'), `step ${i + 1}`).toBe(done);
      const record = (await readLedger(where.ledger)).records.get(where.hooks);
      expect(record, `step ${i + 1}`).toEqual(finalRecord);
      expect(readdirSync(where.dir).sort(), `step ${i + 1}`).toEqual(['hooks.json', 'ledger.json']);
    }
    // Red: some crash point left a pending record that was not rolled forward, or one not back.
    expect(settled).toEqual(new Set([undefined, 'forward', 'back']));
  });
});
