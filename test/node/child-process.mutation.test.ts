// The smallest child-process suite: one install run in a separate process. Under StrykerJS it
// shows whether a mutant is active in a child (see docs/mutation.md); outside Stryker it checks
// that a child's outcome reaches the parent whole.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { COMMAND, SHELL, SPEC } from '../planner/support.js';
import { buildChild, runChild } from './child/spawn.js';
import { strykerChild } from './child/stryker.js';
import { workspace } from './support.js';

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild();
});
afterAll(() => child.dispose());

it('an install run in a child reports done and writes the entry (red: a child reports any other status)', async () => {
  const where = workspace();
  writeFileSync(where.hooks, '{"version": 1, "hooks": {}}\n');
  const result = await runChild(child.script, {
    operation: Operation.Install,
    hooks: where.hooks,
    ledger: where.ledger,
    spec: SPEC,
    shell: SHELL,
    killAt: 0,
  });
  expect(result.output?.status).toBe('done');
  expect(JSON.parse(readFileSync(where.hooks, 'utf8')).hooks.stop[0].command).toBe(COMMAND);
});

// Under Stryker its own namespace is live; replacing it there would break the run.
const strykerGlobal = globalThis as { __stryker__?: unknown };
it.skipIf(strykerGlobal.__stryker__ !== undefined)(
  "passes Stryker's active mutant to a child and counts the child's coverage as the current test's (red: child-process suites kill nothing or report it uncovered)",
  () => {
    const ns = { activeMutant: '7', currentTestId: 'a test', mutantCoverage: undefined };
    strykerGlobal.__stryker__ = ns;
    try {
      const { env, exited } = strykerChild();
      expect(env.__STRYKER_ACTIVE_MUTANT__).toBe('7');
      const file = env.__CURSORHOOKS_CHILD_COVERAGE__ ?? '';
      writeFileSync(file, JSON.stringify({ static: { 3: 1 }, perTest: { x: { 3: 2, 4: 1 } } }));
      exited();
      expect(ns.mutantCoverage).toEqual({ static: {}, perTest: { 'a test': { 3: 3, 4: 1 } } });
      expect(existsSync(file)).toBe(false);
    } finally {
      delete strykerGlobal.__stryker__;
    }
  },
);

it.skipIf(strykerGlobal.__stryker__ !== undefined)(
  'leaves a child alone outside Stryker (red: a child outside Stryker gets a changed environment)',
  () => {
    const { env } = strykerChild();
    expect(env).toBe(process.env);
  },
);
