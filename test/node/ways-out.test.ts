// Every state a user can reach has a way out that status names and that works from that very
// state (issue "every refusal has a way out"). Each case starts from the state as a user meets
// it, asks status, runs what status names, and checks the user ends where they can go on.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation, plan } from '../../src/index.js';
import { beginPending } from '../../src/node/ledger/fence.js';
import { encodeLedger } from '../../src/node/ledger/ledger.js';
import { release } from '../../src/node/ledger/release.js';
import { readStatus } from '../../src/node/status/status.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import {
  decode,
  installedWorkspace,
  operate,
  pendingUpdate,
  recordOf,
  strays,
  text,
  type Where,
  workspace,
  wrapSeam,
} from './support.js';

const FOREIGN = '{"version":1,"hooks":{"stop":[{"command":"foreign"}],"other":[]}}\n';

const status = (where: Where) => readStatus({ hooksFile: where.hooks, ledger: where.ledger });
const installed = () => installedWorkspace(FOREIGN);

/** The owned entry's JSON text in the document. */
const entryOf = (document: string) => document.match(/\{"type":"command"[^{}]*\}/)?.[0] ?? '';
const withoutEntry = (document: string) => document.replace(`,${entryOf(document)}`, '');
const foreignEdit = (document: string) => document.replace('"other":[]', '"other":[1]');

describe('a remove killed after its rename, then a foreign edit', () => {
  // The ledger a Remove leaves when killed after its rename: the receipt, a pending Remove.
  async function crashedRemove(): Promise<Where> {
    const where = await installed();
    const record = await recordOf(where);
    const pending = beginPending(record, Operation.Remove, null);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, pending]])));
    writeFileSync(where.hooks, foreignEdit(withoutEntry(where.document)));
    return where;
  }

  it('settles forward: status says finish with remove, remove completes, install works again (red: every command refuses pending-unresolved forever)', async () => {
    const where = await crashedRemove();
    const s = await status(where);
    expect(s.ledger.pending).toBe('forward');
    expect(s.nextStep).toMatchObject({ code: 'finish', command: 'remove' });
    const removed = await operate(where, Operation.Remove);
    expect(removed).toMatchObject({ status: 'no-op', settled: 'forward' });
    expect((await recordOf(where)).removed).not.toBeNull();
    expect((await operate(where, Operation.Install)).status).toBe('done');
  });

  it.each([Operation.Install, Operation.Repair, Operation.Update])(
    'lets %s settle it too, never refusing pending-unresolved (red: only a hand edit of the ledger gets out)',
    async (operation) => {
      const where = await crashedRemove();
      const outcome = await operate(where, operation);
      expect(outcome.settled).toBe('forward');
      expect(outcome.error?.reason).not.toBe('pending-unresolved');
    },
  );
});

describe('the owned entry deleted by hand alongside another edit', () => {
  it('status names release; release leaves the file alone; install then works (red: install, remove and repair all refuse and status names nothing)', async () => {
    const where = await installed();
    const edited = foreignEdit(withoutEntry(where.document));
    writeFileSync(where.hooks, edited);
    for (const op of [Operation.Install, Operation.Remove, Operation.Repair]) {
      expect((await operate(where, op)).status, op).toBe('refused');
    }
    const s = await status(where);
    expect(s.owned.state).toBe('absent');
    expect(s.nextStep).toMatchObject({ code: 'release', command: 'release' });
    const released = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(released).toMatchObject({ status: 'done', generation: 2 });
    expect(readFileSync(where.hooks, 'utf8')).toBe(edited);
    expect((await status(where)).nextStep.code).toBe('install');
    expect((await operate(where, Operation.Install)).status).toBe('done');
    expect((await status(where)).nextStep.code).toBe('none');
  });
});

describe('the owned entry edited by the user', () => {
  it('status names release, then points at the entry by event and index, and install works once it is deleted (red: owner-modified is a dead end)', async () => {
    const where = await installed();
    const tampered = where.document.replace('"timeout":5', '"timeout":9');
    writeFileSync(where.hooks, tampered);
    expect((await status(where)).nextStep.code).toBe('release');
    expect((await release({ hooksFile: where.hooks, ledger: where.ledger })).status).toBe('done');
    expect(readFileSync(where.hooks, 'utf8')).toBe(tampered);
    const after = await status(where);
    expect(after.owned).toMatchObject({
      state: 'released',
      unowned: [{ event: 'stop', index: 1 }],
    });
    // Kept after release, the entry is the user's: nothing to do, and no loop back to release.
    expect(after.nextStep.code).toBe('none');
    // Red: status leaked the entry's values into what it reports.
    expect(JSON.stringify(after.owned)).not.toContain('timeout');
    expect((await operate(where, Operation.Install)).error?.reason).toBe('command-exists');
    // The refused install's own step: the user's decision about the kept entry, never release.
    const aimed = await readStatus({
      hooksFile: where.hooks,
      ledger: where.ledger,
      spec: SPEC,
      shell: SHELL,
      intent: { command: 'install', refused: 'command-exists' },
    });
    expect(aimed.nextStep.code).toBe('review-entry');
    writeFileSync(where.hooks, FOREIGN);
    expect((await status(where)).nextStep.code).toBe('install');
    expect((await operate(where, Operation.Install)).status).toBe('done');
  });

  it('releasing twice is a no-op that changes nothing (red: a repeated release bumps the generation or forgets the entries)', async () => {
    const where = await installed();
    await release({ hooksFile: where.hooks, ledger: where.ledger });
    const ledger = readFileSync(where.ledger, 'utf8');
    expect(await release({ hooksFile: where.hooks, ledger: where.ledger })).toMatchObject({
      status: 'no-op',
      released: [],
    });
    expect(readFileSync(where.ledger, 'utf8')).toBe(ledger);
  });
});

describe('foreign edits elsewhere, the owner intact', () => {
  it('status names install (refresh), which accepts the edits and refreshes the receipt (red: status says none though repair would later refuse remainder-drift)', async () => {
    const where = await installed();
    writeFileSync(where.hooks, foreignEdit(where.document));
    const s = await status(where);
    expect(s.owned.state).toBe('remainder-drift');
    expect(s.nextStep).toMatchObject({ code: 'refresh', command: 'install' });
    const before = (await recordOf(where)).receipt?.remainderDigest;
    expect((await operate(where, Operation.Install)).status).toBe('no-op');
    expect((await recordOf(where)).receipt?.remainderDigest).not.toBe(before);
    expect((await status(where)).nextStep.code).toBe('none');
    // With the receipt refreshed, a deleted entry is repairable again.
    writeFileSync(where.hooks, withoutEntry(foreignEdit(where.document)));
    expect((await status(where)).nextStep.code).toBe('repair');
  });
});

describe('an interrupted update that matches neither state', () => {
  it('status names release, which ends both the old and the intended ownership (red: pending-unresolved strands the user)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    const { record: pending } = pendingUpdate(record, text(where.document), OTHER_SPEC);
    writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, pending]])));
    writeFileSync(where.hooks, where.document.replace('"timeout":5', '"timeout":7'));
    const outcome = await operate(where, Operation.Update, { spec: OTHER_SPEC });
    expect(outcome).toMatchObject({ status: 'refused', settled: undefined });
    expect(outcome.error?.reason).toBe('pending-unresolved');
    expect((await status(where)).nextStep.code).toBe('release');
    const released = await release({ hooksFile: where.hooks, ledger: where.ledger });
    expect(released.released.map((r) => r.spec)).toEqual([SPEC, OTHER_SPEC]);
    expect((await recordOf(where)).pending).toBeNull();
    expect((await status(where)).owned.unowned).toEqual([{ event: 'stop', index: 1 }]);
  });
});

describe('a read-back that differs because an editor saved right after the rename', () => {
  it('is decided by what the file holds: our entry verifies, so the run is done and the receipt committed (red: the ledger is rolled back and the entry orphaned)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let saved = false;
    const fs = wrapSeam((call, path) => {
      // The first read of the hook file after our rename: an editor re-saves in place first.
      if (call === 'open' && path === where.hooks && !saved && renamed) {
        saved = true;
        writeFileSync(where.hooks, foreignEdit(readFileSync(where.hooks, 'utf8')));
      }
      if (call === 'rename' && path !== undefined && !path.includes('ledger')) renamed = true;
    });
    let renamed = false;
    const outcome = await operate(where, Operation.Install, { fs });
    expect(saved).toBe(true);
    expect(outcome.status).toBe('done');
    expect(decode(outcome.after)).toContain('"other":[1]');
    const record = await recordOf(where);
    expect(record).toMatchObject({ generation: 1, pending: null });
    expect((await status(where)).nextStep.code).toBe('refresh');
    expect((await operate(where, Operation.Remove)).status).toBe('done');
  });
});

describe('smaller ways out', () => {
  it('repair without a receipt refuses receipt-required, not executable-unverified (red: the reason sends the user to the wrong fix)', async () => {
    const where = workspace();
    const outcome = await operate(where, Operation.Repair, { spec: null });
    expect(outcome.error?.reason).toBe('receipt-required');
  });

  it('a refused remove creates no directory and no ledger (red: a refusal leaves stray files behind)', async () => {
    const root = workspace();
    const where = {
      hooks: join(root.dir, 'missing', 'hooks.json'),
      ledger: join(root.dir, 'l', 'ledger.json'),
    };
    const outcome = await operate(where, Operation.Remove);
    expect(outcome.error?.reason).toBe('receipt-required');
    expect(strays(root.dir)).toEqual([]);
  });

  it('a ledger naming the hook file is refused at once, not after a lock wait (red: it waits for its own lock)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate({ hooks: where.hooks, ledger: where.hooks }, Operation.Install, {
      lockTimeoutMs: 60_000,
    });
    expect(outcome).toMatchObject({ status: 'refused' });
    expect(outcome.error?.reason).toBe('ledger-is-hook-file');
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
  });

  it('an exception that is a bug is thrown, not reported as an I/O failure (red: exit 74 hides a bug)', async () => {
    const where = workspace();
    const bug = new TypeError('a bug');
    await expect(
      operate(where, Operation.Install, {
        checkHostPaths: async () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });

  it('a permission failure names the file and its role (red: permission-denied names neither)', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'locked'));
    const hooks = join(where.dir, 'locked', 'hooks.json');
    writeFileSync(hooks, FOREIGN);
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === hooks) {
        throw Object.assign(new Error('EACCES: injected'), { code: 'EACCES' });
      }
    });
    const outcome = await operate({ hooks, ledger: where.ledger }, Operation.Install, { fs });
    expect(outcome.error).toMatchObject({
      reason: 'permission-denied',
      role: 'hook-file',
      path: hooks,
    });
  });

  it('status says whether ACLs and extended attributes can be checked, and not-performed where Node cannot see them (red: a write that may drop an ACL is reported as if checked)', async () => {
    const where = await installed();
    expect((await status(where)).metadata).toEqual({ performed: true, writes: 'preserve' });
    const blind = { ...nodeFs, xattrsLoaded: async () => false };
    const s = await readStatus({ hooksFile: where.hooks, ledger: where.ledger, fs: blind });
    expect(s.metadata).toEqual({ performed: false, why: 'module-unloadable', writes: 'refuse' });
  });

  it('an install takes two locks: the hook file and the ledger, once each (red: a lock per ledger update again)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const calls: string[] = [];
    const fs = wrapSeam((call, path) => {
      if (call === 'link' && path !== undefined) calls.push(path);
    });
    expect((await operate(where, Operation.Install, { fs })).status).toBe('done');
    // Each lock is one link of a staging file to the lock name.
    expect(calls).toHaveLength(2);
    const noOp = await operate(where, Operation.Install, { fs });
    expect(noOp.status).toBe('no-op');
    expect(calls).toHaveLength(2);
  });
});

it('plans the same as the planner does, so the fixture text is what an install writes (red: the fixtures above test another document)', () => {
  const result = plan({
    document: text(FOREIGN),
    operation: Operation.Install,
    specs: [SPEC],
    shell: SHELL,
    executableVerified: true,
  });
  expect(entryOf(decode(result.desired))).not.toBe('');
});
