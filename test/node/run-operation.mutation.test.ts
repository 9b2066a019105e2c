// The operation runner's edges the behaviour suites do not pin, through the fs seam and real
// files: which path decides without the lock (and when side files or a moving ledger send it to
// the locked run), dry runs over a pending record, what each outcome reports, the host checks'
// inputs, and the bound and default of the re-plans.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookSpec } from '../../src/domain/hook-spec.js';
import { Operation } from '../../src/index.js';
import { encodeLedger, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import type { HostPathChecker } from '../../src/node/status/path-report.js';
import { OTHER_SPEC, SPEC } from '../planner/support.js';
import {
  decode,
  errno,
  installedWorkspace,
  isDataTemp,
  operate,
  pendingUpdate,
  recordOf,
  strays,
  text,
  type Where,
  workspace,
  wrapSeam,
} from './support.js';

const FOREIGN = '{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}]}\n}\n';

const installed = () => installedWorkspace(FOREIGN);

/** A seam that records every lock link (a lock taken) and every call on a path. */
function watched(): { fs: ReturnType<typeof wrapSeam>; links: string[]; calls: string[] } {
  const links: string[] = [];
  const calls: string[] = [];
  const fs = wrapSeam((call, path) => {
    calls.push(`${call} ${path ?? ''}`);
    if (call === 'link' && path !== undefined) links.push(path);
  });
  return { fs, links, calls };
}

/** A checker that counts its calls and remembers the specs it saw. */
function countingChecker(verified = true): { check: HostPathChecker; seen: HookSpec[] } {
  const seen: HookSpec[] = [];
  return {
    seen,
    check: async (spec) => {
      seen.push(spec);
      return { verified, checks: [] };
    },
  };
}

/** The ledger with the given record for the hook file. */
function writeRecord(where: Where, record: LedgerRecord): void {
  writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, record]])));
}

describe('deciding without the lock', () => {
  it('reinstalls as a no-op without taking any lock (red: every no-op locks and writes the ledger)', async () => {
    const where = await installed();
    const ledgerBytes = readFileSync(where.ledger, 'utf8');
    const { fs, links } = watched();
    const again = await operate(where, Operation.Install, { fs });
    expect(again).toMatchObject({ status: 'no-op', generation: 1, attempts: 1 });
    expect(again.receipt).toEqual((await recordOf(where)).receipt);
    expect(links).toEqual([]);
    expect(readFileSync(where.ledger, 'utf8')).toBe(ledgerBytes);
  });

  /** A dead writer's `leftover`: a repeated Install is a no-op that takes both locks and sweeps it. */
  async function expectLeftoverSwept(where: Where, leftover: string): Promise<void> {
    writeFileSync(leftover, 'x');
    const { fs, links } = watched();
    const again = await operate(where, Operation.Install, { fs });
    expect(again.status).toBe('no-op');
    expect(links).toHaveLength(2);
    expect(existsSync(leftover)).toBe(false);
  }

  it('takes the locks when a dead writer`s temp file stands beside the hook file, and sweeps it (red: a no-op leaves leftovers forever)', async () => {
    const where = await installed();
    await expectLeftoverSwept(where, `${where.hooks}.cursorhooks-999999999-000000000000.tmp`);
  });

  it('takes the locks when a dead writer`s temp file stands beside the ledger, and sweeps it (red: the ledger`s side files are never looked at)', async () => {
    const where = workspace();
    const ledger = join(where.dir, 'state', 'ledger.json');
    const target = { ...where, ledger };
    writeFileSync(where.hooks, FOREIGN);
    expect((await operate(target, Operation.Install)).status).toBe('done');
    await expectLeftoverSwept(target, `${ledger}.cursorhooks-999999999-000000000000.tmp`);
  });

  it('takes the locks when the ledger changed between its two reads (red: a no-op is reported from a record another run just replaced)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    let ledgerOpens = 0;
    const links: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined) links.push(path);
      if (call === 'open' && path === where.ledger && ++ledgerOpens === 2) {
        // Another run committed a generation meanwhile (same receipt, so still a no-op).
        writeRecord(where, { ...record, generation: 7 });
      }
    });
    const again = await operate(where, Operation.Install, { fs });
    expect(again).toMatchObject({ status: 'no-op', generation: 7 });
    expect(links).toHaveLength(2);
  });

  it('takes the locks when the ledger appeared between its two reads (red: presence is not compared, only bytes)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    // A refusal without a ledger: the hook file already holds our command, hand-written.
    const done = await installed();
    writeFileSync(where.hooks, done.document);
    let ledgerOpens = 0;
    const links: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined) links.push(path);
      if (call === 'open' && path === where.ledger && ++ledgerOpens === 2) {
        writeFileSync(where.ledger, encodeLedger(new Map()));
      }
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome.error?.reason).toBe('command-exists');
    expect(links).toHaveLength(2);
  });

  it('refuses without a lock and reports the recorded receipt on a refusal (red: a refusal reports no receipt or a planned one)', async () => {
    const where = await installed();
    const { fs, links } = watched();
    const record = await recordOf(where);
    // Update to the spec already installed is a no-op; Update to another spec with a failed check refuses.
    const refused = await operate(where, Operation.Update, {
      spec: OTHER_SPEC,
      fs,
      checkHostPaths: countingChecker(false).check,
    });
    expect(refused.status).toBe('refused');
    expect(refused.error?.reason).toBe('executable-unverified');
    expect(refused.receipt).toEqual(record.receipt);
    expect(refused).toMatchObject({ existed: true, generation: 1, attempts: 1 });
    expect(decode(refused.after)).toBe(decode(refused.before));
    expect(links).toEqual([]);
  });
});

describe('dry runs', () => {
  it('settles a pending write in memory only and reports how (red: a dry run over a crash refuses, or records)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    const { record: pending, after } = pendingUpdate(record, text(where.document), OTHER_SPEC);
    writeRecord(where, pending);
    writeFileSync(where.hooks, after);
    const ledgerBytes = readFileSync(where.ledger, 'utf8');
    const { fs, links } = watched();
    const preview = await operate(where, Operation.Update, { spec: OTHER_SPEC, dryRun: true, fs });
    expect(preview).toMatchObject({ status: 'dry-run', settled: 'forward', generation: 2 });
    expect(preview.receipt?.spec).toEqual(OTHER_SPEC);
    expect(links).toEqual([]);
    expect(readFileSync(where.ledger, 'utf8')).toBe(ledgerBytes);
  });

  it('refuses pending-unresolved on a dry run over a write nothing can decide (red: a preview guesses)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    const { record: pending } = pendingUpdate(record, text(where.document), OTHER_SPEC);
    writeRecord(where, pending);
    // Neither the old entry nor the new one: the entry edited by hand.
    writeFileSync(where.hooks, where.document.replace('"timeout": 5', '"timeout": 6'));
    const preview = await operate(where, Operation.Update, { spec: OTHER_SPEC, dryRun: true });
    expect(preview.status).toBe('refused');
    expect(preview.error?.reason).toBe('pending-unresolved');
    expect(preview.settled).toBeUndefined();
  });

  it('previews a repeated remove as dry-run, not no-op (red: a preview reports it ran)', async () => {
    const where = await installed();
    expect((await operate(where, Operation.Remove)).status).toBe('done');
    const preview = await operate(where, Operation.Remove, { dryRun: true });
    expect(preview).toMatchObject({ status: 'dry-run', receipt: null, generation: 2 });
    const again = await operate(where, Operation.Remove);
    expect(again).toMatchObject({ status: 'no-op', receipt: null, generation: 2 });
  });

  it('previews without a lock even beside a dead writer`s temp file (red: a preview sweeps, locking and writing)', async () => {
    const where = await installed();
    const leftover = `${where.hooks}.cursorhooks-999999999-000000000000.tmp`;
    writeFileSync(leftover, 'x');
    const { fs, links } = watched();
    const preview = await operate(where, Operation.Update, { spec: OTHER_SPEC, dryRun: true, fs });
    expect(preview.status).toBe('dry-run');
    expect(links).toEqual([]);
    expect(existsSync(leftover)).toBe(true);
  });

  it('reports the planned receipt on a dry run, not the recorded none (red: a preview shows no receipt)', async () => {
    const where = workspace();
    const preview = await operate(where, Operation.Install, { dryRun: true });
    expect(preview.status).toBe('dry-run');
    expect(preview.receipt?.spec).toEqual(SPEC);
    expect(preview.generation).toBe(0);
  });

  it('removes an entry whose record still owns a receipt beside an old removal (red: any recorded removal makes remove a no-op)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    const { receipt } = record;
    if (receipt === null) throw new Error('installed without a receipt');
    writeRecord(where, { ...record, removed: { generation: 1, receipt } });
    const removed = await operate(where, Operation.Remove);
    expect(removed).toMatchObject({ status: 'done', receipt: null });
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
  });

  it('a dry run with dryRun false writes (red: any dryRun option counts as a preview)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate(where, Operation.Install, { dryRun: false });
    expect(outcome.status).toBe('done');
    expect(readFileSync(where.hooks, 'utf8')).not.toBe(FOREIGN);
  });
});

describe('what an outcome reports', () => {
  it('says the file did not exist and before and after are empty for a failure before any read (red: existed defaults to true)', async () => {
    const where = workspace();
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.ledger) throw errno('EIO');
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'failed', existed: false, generation: 0 });
    expect(outcome.error).toMatchObject({
      reason: 'io-failure',
      role: 'ledger',
      path: where.ledger,
    });
    expect(outcome.before).toEqual(new Uint8Array(0));
    expect(outcome.after).toEqual(new Uint8Array(0));
    expect(outcome.realPath).toBe(where.hooks);
    expect(outcome.attempts).toBe(0);
  });

  it('names the hook file when even resolving it fails (red: the failure names no file)', async () => {
    const where = workspace();
    const fs = wrapSeam((call, path) => {
      if (call === 'realpath' && path === where.hooks) throw errno('EIO');
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'failed', realPath: undefined });
    expect(outcome.error).toMatchObject({
      reason: 'io-failure',
      role: 'hook-file',
      path: where.hooks,
    });
  });

  it('reports no settlement for a run with nothing pending (red: every locked run claims it settled back)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate(where, Operation.Install);
    expect(outcome.status).toBe('done');
    expect(outcome.settled).toBeUndefined();
  });

  it('flushes the ledger`s directory for the pending record but not for the commit (red: every commit pays a directory flush, or the pending record is not durable)', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'state'));
    const target = { ...where, ledger: join(where.dir, 'state', 'ledger.json') };
    const flushed: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (call === 'fsync' && path === join(where.dir, 'state')) flushed.push(path);
    });
    expect((await operate(target, Operation.Install, { fs })).status).toBe('done');
    expect(flushed).toHaveLength(1);
  });

  it('names the hook file when reading it fails (red: the failure names no file)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks) throw errno('EIO');
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome.error).toMatchObject({
      reason: 'io-failure',
      role: 'hook-file',
      path: where.hooks,
    });
  });

  it('reports the host checks it ran and the new receipt of a done install (red: hostPaths or receipt dropped)', async () => {
    const where = workspace();
    const report = { verified: true, checks: [] };
    const outcome = await operate(where, Operation.Install, { checkHostPaths: async () => report });
    expect(outcome.status).toBe('done');
    expect(outcome.hostPaths).toBe(report);
    expect(outcome.existed).toBe(false);
    expect(outcome.receipt?.spec).toEqual(SPEC);
    expect(outcome.operation).toBe(Operation.Install);
    expect(outcome.hooksFile).toBe(where.hooks);
  });
});

describe('the host checks', () => {
  it('never runs them for a remove, even with a spec (red: remove refuses on a spec whose paths are gone)', async () => {
    const where = await installed();
    const { check, seen } = countingChecker(false);
    const removed = await operate(where, Operation.Remove, { checkHostPaths: check });
    expect(removed.status).toBe('done');
    expect(seen).toEqual([]);
    expect(removed.hostPaths).toBeUndefined();
  });

  it('refuses receipt-required before any check for an update or a remove without a receipt (red: the reason is a host check`s)', async () => {
    for (const operation of [Operation.Update, Operation.Remove]) {
      const where = workspace();
      writeFileSync(where.hooks, FOREIGN);
      const { check, seen } = countingChecker(false);
      const outcome = await operate(where, operation, { checkHostPaths: check });
      expect(outcome.error?.reason, operation).toBe('receipt-required');
      expect(outcome.status, operation).toBe('refused');
      expect(seen, operation).toEqual([]);
      expect(decode(outcome.after), operation).toBe(FOREIGN);
    }
  });

  it('installs without a receipt (red: install needs a receipt too)', async () => {
    const where = workspace();
    const { check, seen } = countingChecker();
    expect((await operate(where, Operation.Install, { checkHostPaths: check })).status).toBe(
      'done',
    );
    expect(seen).toEqual([SPEC]);
  });

  it('checks the given spec, not the receipt`s, for an update (red: an update vouches for the old paths)', async () => {
    const where = await installed();
    const { check, seen } = countingChecker();
    const updated = await operate(where, Operation.Update, {
      spec: OTHER_SPEC,
      checkHostPaths: check,
    });
    expect(updated.status).toBe('done');
    expect(seen).toEqual([OTHER_SPEC]);
  });

  it('runs no check for an update without a spec, which then refuses unverified (red: the receipt`s spec is checked for an update)', async () => {
    const where = await installed();
    const { check, seen } = countingChecker();
    const outcome = await operate(where, Operation.Update, { spec: null, checkHostPaths: check });
    expect(seen).toEqual([]);
    expect(outcome.status).toBe('refused');
  });

  it('runs them once across re-plans (red: every re-plan checks the paths again)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let wrote = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'fsync' && path !== undefined && isDataTemp(path) && !path.includes('ledger')) {
        if (!wrote) writeFileSync(where.hooks, FOREIGN.replace('foreign', 'edited meanwhile'));
        wrote = true;
      }
    });
    const { check, seen } = countingChecker();
    const outcome = await operate(where, Operation.Install, { fs, checkHostPaths: check });
    expect(outcome).toMatchObject({ status: 'done', attempts: 2 });
    expect(seen).toEqual([SPEC]);
  });
});

describe('re-plans', () => {
  /** A seam on which a foreign editor changes the hook file during every swap. */
  function busyEditor(where: Where): ReturnType<typeof wrapSeam> {
    let edits = 0;
    return wrapSeam((call, path) => {
      if (call === 'fsync' && path !== undefined && isDataTemp(path) && !path.includes('ledger')) {
        writeFileSync(where.hooks, FOREIGN.replace('foreign', `edit ${++edits}`));
      }
    });
  }

  it('plans four times by default against an editor that never stops (red: the default bound is lost)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate(where, Operation.Install, { fs: busyEditor(where) });
    expect(outcome).toMatchObject({ status: 'failed', attempts: 4 });
    expect(outcome.error?.reason).toBe('file-changed');
    expect((await recordOf(where)).pending).toBeNull();
  });

  it('plans once with no re-plans allowed (red: zero re-plans still re-plans)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate(where, Operation.Install, {
      fs: busyEditor(where),
      maxReplans: 0,
    });
    expect(outcome).toMatchObject({ status: 'failed', attempts: 1 });
    expect(outcome.error?.reason).toBe('file-changed');
  });

  it('plans again under the lock when the record changed after the early plan (red: a stale early plan is reused)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    // Update planned early on generation 1; another run bumps the record before our lock.
    let bumped = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined && !bumped) {
        bumped = true;
        writeRecord(where, { ...record, generation: 5 });
      }
    });
    const outcome = await operate(where, Operation.Update, { spec: OTHER_SPEC, fs });
    expect(outcome).toMatchObject({ status: 'done', attempts: 2, generation: 6 });
  });

  it('reuses the early plan when file and record are unchanged (red: every write plans twice)', async () => {
    const where = await installed();
    const outcome = await operate(where, Operation.Update, { spec: OTHER_SPEC });
    expect(outcome).toMatchObject({ status: 'done', attempts: 1, generation: 2 });
  });

  it('plans again under the lock when the file changed after the early plan (red: the early plan is reused on other bytes)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let edited = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined && !edited) {
        edited = true;
        writeFileSync(where.hooks, FOREIGN.replace('foreign', 'edited before the lock'));
      }
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'done', attempts: 2 });
    expect(readFileSync(where.hooks, 'utf8')).toContain('edited before the lock');
  });
});

describe('a failed write', () => {
  it('fails and keeps the pending record when even the read-back after the failure fails (red: a blind roll-back)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
      else if (call === 'fsync' && path === where.dir && renamed) throw errno('EIO');
      else if (call === 'open' && path === where.hooks && renamed) throw errno('EIO');
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'failed', generation: 0, receipt: null });
    expect(outcome.error).toMatchObject({ reason: 'io-failure' });
    expect((await recordOf(where)).pending).toMatchObject({ operation: Operation.Install });
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('is done on a read-back mismatch whose file holds our entry, reporting the committed receipt (red: done with no receipt)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    let saved = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks && renamed && !saved) {
        saved = true;
        // An editor saves an edit elsewhere right after the rename: our entry stays intact.
        writeFileSync(where.hooks, readFileSync(where.hooks, 'utf8').replace('foreign', 'saved'));
      }
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(saved).toBe(true);
    expect(outcome).toMatchObject({ status: 'done', generation: 1 });
    const { receipt } = await recordOf(where);
    expect(receipt).not.toBeNull();
    expect(outcome.receipt).toEqual(receipt);
  });

  it('fails on a read-back mismatch whose file holds neither state (red: an unresolved write counts as done)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    let saved = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks && renamed && !saved) {
        saved = true;
        // An editor saves our entry edited by hand right after the rename.
        const ours = readFileSync(where.hooks, 'utf8');
        writeFileSync(where.hooks, ours.replace('"timeout": 5', '"timeout": 6'));
      }
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(saved).toBe(true);
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.reason).toBe('readback-mismatch');
    expect(outcome.receipt).toBeNull();
    // What the run last read: the file before the write, not the unresolved one after it.
    expect(decode(outcome.after)).toBe(FOREIGN);
    expect((await recordOf(where)).pending).not.toBeNull();
  });

  it('plans again on a read-back mismatch whose file holds the old state (red: a write that never landed fails the run)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    let saved = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks && renamed && !saved) {
        saved = true;
        // An editor saves its own buffer (without our entry) right after the rename.
        writeFileSync(where.hooks, FOREIGN.replace('foreign', 'saved over'));
      }
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(saved).toBe(true);
    expect(outcome).toMatchObject({ status: 'done', attempts: 2, generation: 1 });
    const written = readFileSync(where.hooks, 'utf8');
    expect(written).toContain('saved over');
    expect(decode(outcome.after)).toBe(written);
  });

  it('fails on a read-back mismatch in the old state when no re-plan is left (red: the bound is ignored after a mismatch)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks && renamed) {
        renamed = false;
        writeFileSync(where.hooks, FOREIGN.replace('foreign', 'saved over'));
      }
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
    });
    const outcome = await operate(where, Operation.Install, { fs, maxReplans: 0 });
    expect(outcome).toMatchObject({ status: 'failed', attempts: 1, generation: 0 });
    expect(outcome.error?.reason).toBe('readback-mismatch');
    expect((await recordOf(where)).pending).toBeNull();
  });
});
