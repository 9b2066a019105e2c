// Sixteen processes, each with its own spec and ledger (sixteen different owners), install and
// remove on one shared hook file for fifty rounds: no entry is ever lost or doubled, the
// foreign bytes survive every edit, and the only outcomes are done (or the documented
// retryable file-changed, retried).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readLedger } from '../../src/node/ledger/ledger.js';
import { SHELL } from '../planner/support.js';
import { buildChild, runChild } from './child/spawn.js';
import { ownerSpecs, strays, tempDir } from './support.js';

const FOREIGN = '{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}]}\n}\n';
const PROCESSES = 16;
const ROUNDS = 50;

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild('rounds');
});
afterAll(() => child.dispose());

it(`${PROCESSES} owners × ${ROUNDS} rounds on one file lose nothing (red: a lost update, a doubled entry or a foreign byte changed)`, async () => {
  const dir = tempDir();
  const hooks = join(dir, 'hooks.json');
  writeFileSync(hooks, FOREIGN);
  const owners = ownerSpecs(PROCESSES).map((spec, i) => ({
    spec,
    ledger: join(dir, `ledger-${i}.json`),
  }));
  const ledgers = owners.map((owner) => owner.ledger);
  const running = Promise.all(
    owners.map(({ spec, ledger }) =>
      runChild(child.script, {
        hooks,
        ledger,
        spec,
        shell: SHELL,
        rounds: ROUNDS,
      }),
    ),
  );
  // Meanwhile a reader only ever sees valid JSON holding each command at most once.
  let finished = false;
  void running.finally(() => {
    finished = true;
  });
  let reads = 0;
  while (!finished) {
    const doc = JSON.parse(readFileSync(hooks, 'utf8')) as {
      hooks: { stop: { command: string }[] };
    };
    const commands = doc.hooks.stop.map((entry) => entry.command);
    expect(new Set(commands).size).toBe(commands.length);
    expect(commands[0]).toBe('foreign');
    reads++;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(reads).toBeGreaterThan(0);
  const results = await running;
  for (const result of results) {
    expect(result.code).toBe(0);
    expect(result.output?.seen).toEqual(Array(2 * ROUNDS).fill('done'));
  }
  // Every owner removed what it installed, last: only the foreign bytes remain, byte for byte
  // apart from the empty stop array each removal leaves, and every ledger says removed.
  expect(readFileSync(hooks, 'utf8')).toBe(FOREIGN);
  for (const ledger of ledgers) {
    const record = (await readLedger(ledger)).records.get(hooks);
    expect(record).toMatchObject({ generation: 2 * ROUNDS, receipt: null, pending: null });
  }
  expect(strays(dir, 'hooks.json', ...ledgers.map((l) => l.slice(dir.length + 1)))).toEqual([]);
}, 240_000);
