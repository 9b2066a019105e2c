// Eight processes at once on one hook file: with one spec and one ledger they make one entry and
// one record, also when they first recover the stale locks of a killed process; with eight specs
// and eight ledgers every entry lands and no foreign byte is lost, while a reader only ever sees
// valid JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { readLedger } from '../../src/node/ledger/ledger.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import { COMMAND, posixCommand, SHELL, SPEC } from '../planner/support.js';
import type { ChildJob } from './child/operate.js';
import { buildChild, runChild } from './child/spawn.js';
import { ownerSpecs, tempDir } from './support.js';

const FOREIGN = '{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}]}\n}\n';
const PROCESSES = 8;

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild();
});
afterAll(() => child.dispose());

function commandsIn(document: string): string[] {
  const parsed = JSON.parse(document) as { hooks: { stop: { command: string }[] } };
  return parsed.hooks.stop.map((entry) => entry.command);
}

/** Reads the file until `done` settles; returns how many reads parsed (throws on one that does not). */
async function watch(path: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  let reads = 0;
  while (!finished) {
    if (existsSync(path)) {
      JSON.parse(readFileSync(path, 'utf8'));
      reads++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return reads;
}

describe('eight processes at once', () => {
  it('installing one spec with one ledger make one entry and one record without error, or installs race', async () => {
    const dir = tempDir();
    const hooks = join(dir, 'hooks.json');
    const ledger = join(dir, 'ledger.json');
    writeFileSync(hooks, FOREIGN);
    await installOneSpecEverywhere(hooks, ledger);
    const { records } = await readLedger(ledger);
    expect([...records.keys()]).toEqual([hooks]);
    expect(records.get(hooks)).toMatchObject({ generation: 1, pending: null });
    expect(readdirSync(dir).sort()).toEqual(['hooks.json', 'ledger.json']);
  });

  // Red: two processes break the same stale lock and both enter, or a break wedges the lock.
  it('installing over stale locks of a killed process break each once and make one entry, or recovery races', async () => {
    const dir = tempDir();
    const hooks = join(dir, 'hooks.json');
    const ledger = join(dir, 'ledger.json');
    writeFileSync(hooks, FOREIGN);
    const dead = spawnSync('true').pid;
    for (const path of [hooks, ledger]) {
      const record = {
        pid: dead,
        hostname: hostname(),
        acquiredAt: '2026-01-01T00:00:00Z',
        nonce: 'ab',
      };
      writeFileSync(lockPathOf(path), JSON.stringify(record));
    }
    await installOneSpecEverywhere(hooks, ledger);
    expect(readdirSync(dir).sort()).toEqual(['hooks.json', 'ledger.json']);
  });

  it('installing eight specs with eight ledgers keep every entry and foreign byte, always valid JSON, or a write is lost', async () => {
    const dir = tempDir();
    const hooks = join(dir, 'hooks.json');
    writeFileSync(hooks, FOREIGN);
    const specs = ownerSpecs(PROCESSES);
    const running = Promise.all(
      specs.map((spec, i) =>
        runChild(child.script, {
          operation: Operation.Install,
          hooks,
          ledger: join(dir, `ledger-${i}.json`),
          spec,
          shell: SHELL,
          killAt: 0,
        }),
      ),
    );
    const reads = await watch(hooks, running);
    const results = await running;
    expect(results.map((result) => result.output?.status)).toEqual(Array(PROCESSES).fill('done'));
    expect(reads).toBeGreaterThan(0);
    const final = readFileSync(hooks, 'utf8');
    expect(commandsIn(final).sort()).toEqual(['foreign', ...specs.map(posixCommand)].sort());
    // The foreign member's own bytes (tab indent, spacing) survive every one of the eight edits.
    expect(
      final.startsWith('{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}'),
    ).toBe(true);
    for (let i = 0; i < PROCESSES; i++) {
      const { records } = await readLedger(join(dir, `ledger-${i}.json`));
      expect(records.get(hooks)).toMatchObject({ generation: 1, pending: null });
    }
  });
});

/** PROCESSES children install SPEC into one file with one ledger: one is done, the rest no-op. */
async function installOneSpecEverywhere(hooks: string, ledger: string): Promise<void> {
  const job: ChildJob = {
    operation: Operation.Install,
    hooks,
    ledger,
    spec: SPEC,
    shell: SHELL,
    killAt: 0,
  };
  const results = await Promise.all(
    Array.from({ length: PROCESSES }, () => runChild(child.script, job)),
  );
  const statuses = results.map((result) => result.output?.status).sort();
  expect(statuses).toEqual(['done', ...Array<string>(PROCESSES - 1).fill('no-op')]);
  expect(commandsIn(readFileSync(hooks, 'utf8'))).toEqual(['foreign', COMMAND]);
}
