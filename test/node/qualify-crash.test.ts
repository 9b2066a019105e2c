// Each qualify step killed with SIGKILL before every mutating file-system call: whatever is left,
// status names a step (never a hand fix), and following the steps it names ends in a clean state
// directory and the user's hook file byte for byte, with a valid record after a finish.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualifiedContract } from '../../src/index.js';
import {
  cancelQualification,
  finishQualification,
  qualificationStatus,
  startQualification,
} from '../../src/node/index.js';
import type { QualifyJob } from './child/qualify.js';
import { buildChild, runChild, runChildren } from './child/spawn.js';
import { fire, type ProbeHome, probeHome, USER_HOOKS } from './qualify-support.js';
import { allChecksPassed } from './support.js';

let child: Awaited<ReturnType<typeof buildChild>>;
beforeAll(async () => {
  child = await buildChild('qualify');
});
afterAll(() => child.dispose());

type Action = QualifyJob['action'];

/** A home where `action` has something to do: nothing yet, a fired probe, a waiting probe. */
async function prepare(action: Action): Promise<ProbeHome> {
  const where = probeHome();
  if (action === 'start') return where;
  const started = await startQualification({
    stateDir: where.stateDir,
    hooksFile: where.hooksFile,
    family: 'posix-single-quote',
    checkHostPaths: allChecksPassed,
  });
  expect(started.error).toBeUndefined();
  if (action === 'finish') await fire(where);
  return where;
}

const job = (where: ProbeHome, action: Action, killAt: number): QualifyJob => ({
  action,
  stateDir: where.stateDir,
  hooksFile: where.hooksFile,
  out: where.out,
  killAt,
});

/** Follows what status names until nothing is in progress; returns the steps taken. */
async function followWayOut(where: ProbeHome, step: string): Promise<string[]> {
  const taken: string[] = [];
  for (let round = 0; round < 5; round++) {
    const status = await qualificationStatus({ stateDir: where.stateDir });
    const { code } = status.nextStep;
    taken.push(code);
    if (code === 'start') return taken;
    const options = { stateDir: where.stateDir, checkHostPaths: allChecksPassed };
    if (code === 'cancel') expect((await cancelQualification(options)).error).toBeUndefined();
    else if (code === 'finish') {
      expect((await finishQualification({ ...options, out: where.out })).error).toBeUndefined();
    } else if (code === 'fire-stop') await fire(where);
    else throw new Error(`${step}: status named ${code}, a dead end after a crash`);
  }
  throw new Error(`${step}: no end after ${taken.join(', ')}`);
}

describe.each(['start', 'finish', 'cancel'] as const)(
  'qualify %s killed at every mutating step',
  (action) => {
    it('leaves a state whose named steps end clean, the hook file byte-identical (red: a crash wedges the probe or loses a byte)', async () => {
      const reference = await prepare(action);
      const full = await runChild(child.script, job(reference, action, 0));
      expect(full.output?.status).toBe('done');
      const steps = full.output?.calls ?? 0;
      expect(steps).toBeGreaterThan(5);

      // finish has the most steps and repeats the writes start and cancel are swept at in full:
      // every other one keeps the sweep to about a minute.
      const stride = action === 'finish' ? 2 : 1;
      const killAt = Array.from({ length: steps }, (_, i) => i + 1).filter((n) => n % stride === 0);
      const homes = await Promise.all(killAt.map(() => prepare(action)));
      const results = await runChildren(
        child.script,
        homes.map((where, i) => job(where, action, killAt[i] ?? 0)),
        4,
      );
      const endings = new Set<string>();
      for (const [i, where] of homes.entries()) {
        const step = `${action} killed at step ${killAt[i]}`;
        expect(results[i]?.signal, step).toBe('SIGKILL');
        const taken = await followWayOut(where, step);
        // A new qualification works after any crash, and its cancel sweeps what the kill left.
        const again = await startQualification({
          stateDir: where.stateDir,
          hooksFile: where.hooksFile,
          family: 'posix-single-quote',
          checkHostPaths: allChecksPassed,
        });
        expect(again.error, step).toBeUndefined();
        expect(
          (await cancelQualification({ stateDir: where.stateDir })).error,
          step,
        ).toBeUndefined();
        endings.add(taken.join(' > '));
        expect(readFileSync(where.hooksFile, 'utf8'), step).toBe(USER_HOOKS);
        expect(readdirSync(where.stateDir), `${step} after ${taken.join(' > ')}`).toEqual([]);
        if (existsSync(where.out)) qualifiedContract(JSON.parse(readFileSync(where.out, 'utf8')));
      }
      // Red: every kill took the same way out, so the sweep never reached the later steps.
      expect(endings.size, [...endings].join('\n')).toBeGreaterThan(1);
    }, 300_000);
  },
);

it('makes the state directory it is given (red: start needs a directory made by hand)', async () => {
  const where = probeHome();
  mkdirSync(join(where.home, 'unrelated'));
  const started = await startQualification({
    stateDir: join(where.stateDir, 'deeper', 'still'),
    hooksFile: where.hooksFile,
    family: 'posix-single-quote',
    checkHostPaths: allChecksPassed,
  });
  expect(started.error).toBeUndefined();
});
