// readStatus's edges the behaviour suites do not pin: every field of a report (file problems,
// positions, the ledger's real path, locks, the next step's command, spec and sentence), the
// states reached only by rarer files (empty, an entry outside stop, a planner failing oddly, an
// unregistered shell) and the order of the unowned entries.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { encodeLedger, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import { release } from '../../src/node/ledger/release.js';
import {
  KEPT_SENTENCE,
  NEXT_STEP_SENTENCES,
  type StatusPlanner,
} from '../../src/node/status/status.js';
import { defaultPlanner } from '../../src/planner/default.js';
import { COMMAND, OTHER_COMMAND, OTHER_SPEC, SHELL, SPEC } from '../planner/support.js';
import { FOREIGN, installed, status } from './status-support.js';
import {
  errno,
  operate,
  pendingUpdate,
  recordOf,
  text,
  type Where,
  workspace,
  wrapSeam,
} from './support.js';

function writeRecord(where: Where, record: LedgerRecord): void {
  writeFileSync(where.ledger, encodeLedger(new Map([[where.hooks, record]])));
}

/** An entry running our command, as JSON text. */
const ours = JSON.stringify({ type: 'command', command: COMMAND, timeout: 5 });

function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

describe('the report of a fresh home', () => {
  it('is exactly: absent file and ledger, no locks, install with no spec (red: any field drifts)', async () => {
    const where = workspace();
    const s = await status(where);
    expect(s).toEqual({
      hooksFile: where.hooks,
      realPath: where.hooks,
      file: { state: 'absent', reason: undefined, role: undefined, path: undefined, at: undefined },
      owned: { state: 'not-installed', repairable: false, reason: undefined, unowned: [] },
      ledger: {
        state: 'absent',
        reason: undefined,
        role: undefined,
        path: undefined,
        realPath: where.ledger,
        record: undefined,
        generation: 0,
        pending: undefined,
      },
      locks: [],
      metadata: s.metadata,
      contractFile: null,
      doctor: { findings: 0, worst: null, pointsAtDoctor: false },
      nextStep: {
        code: 'install',
        command: 'install',
        with: null,
        sentence: NEXT_STEP_SENTENCES.install,
      },
    });
  });
});

describe('the hook file', () => {
  it('calls a zero-byte file empty, not absent or valid (red: an empty file is misreported)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, '');
    const s = await status(where);
    expect(s.file.state).toBe('empty');
    expect(s.owned.state).toBe('not-installed');
  });

  it('says where a syntax error is and what refused it, with no role or path (red: the position is lost)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, '{"version":1,}');
    const s = await status(where);
    expect(s.file.state).toBe('refused');
    expect(s.file.at).toBeDefined();
    expect(s.file.reason).toBeDefined();
    expect(s.file.role).toBeUndefined();
    expect(s.file.path).toBeUndefined();
    expect(s.owned).toEqual({
      state: 'unknown',
      repairable: false,
      reason: s.file.reason,
      unowned: [],
    });
    expect(s.nextStep).toMatchObject({ code: 'fix-file', command: null, with: null });
  });

  it('names the hook file and its role for an I/O failure, with no position (red: the failure names nothing)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.hooks) throw errno('EIO');
    });
    const s = await status(where, { fs });
    expect(s.file).toEqual({
      state: 'refused',
      reason: 'io-failure',
      role: 'hook-file',
      path: where.hooks,
      at: undefined,
    });
    expect(s.realPath).toBe(where.hooks);
  });

  it('reports the symlink`s target as the real path (red: the link itself is the key)', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'dotfiles'));
    const real = join(where.dir, 'dotfiles', 'hooks.json');
    writeFileSync(real, FOREIGN);
    symlinkSync(real, where.hooks);
    expect((await status(where)).realPath).toBe(real);
  });
});

describe('the ledger', () => {
  it('names the ledger and its role for an I/O failure and still finds its real path (red: the wrong file is named)', async () => {
    const where = workspace();
    writeFileSync(where.ledger, encodeLedger(new Map()));
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.ledger) throw errno('EIO');
    });
    const s = await status(where, { fs });
    expect(s.ledger).toEqual({
      state: 'refused',
      reason: 'io-failure',
      role: 'ledger',
      path: where.ledger,
      realPath: where.ledger,
      record: undefined,
      generation: 0,
      pending: undefined,
    });
    expect(s.nextStep).toMatchObject({ code: 'fix-ledger', command: null });
  });

  it('has no real path when even that cannot be found (red: a failed resolution throws)', async () => {
    const where = workspace();
    const fs = wrapSeam((_call, path) => {
      if (path?.startsWith(where.ledger)) throw errno('EIO');
    });
    const s = await status(where, { fs });
    expect(s.ledger.state).toBe('refused');
    expect(s.ledger.realPath).toBeUndefined();
    expect(s.locks).toEqual([]);
  });

  it('is valid with the record and its generation after an install (red: the record or generation is dropped)', async () => {
    const where = await installed();
    const s = await status(where);
    expect(s.ledger).toMatchObject({ state: 'valid', generation: 1, pending: undefined });
    expect(s.ledger.record).toEqual(await recordOf(where));
  });

  it('leaves a pending write undecided when the hook file cannot be read (red: it is judged on no bytes)', async () => {
    const where = await installed();
    const { record } = pendingUpdate(await recordOf(where), text(where.document), OTHER_SPEC);
    writeRecord(where, record);
    writeFileSync(where.hooks, '{"version":1,');
    const s = await status(where);
    expect(s.ledger.record?.pending).not.toBeNull();
    expect(s.ledger.pending).toBeUndefined();
    expect(s.nextStep.code).toBe('fix-file');
  });
});

describe('locks', () => {
  it('lists a held lock beside the hook file and a stale one beside the ledger, each with its role (red: locks are hidden or mislabelled)', async () => {
    const where = await installed();
    const live = { pid: process.ppid, hostname: hostname(), acquiredAt: 'x', nonce: 'n' };
    const dead = { ...live, pid: deadPid() };
    writeFileSync(`${where.hooks}.cursorhooks-lock`, JSON.stringify(live));
    writeFileSync(`${where.ledger}.cursorhooks-lock`, JSON.stringify(dead));
    const s = await status(where);
    expect(s.locks.map(({ role, state, path }) => ({ role, state, path }))).toEqual([
      { role: 'hook-file', state: 'held', path: `${where.hooks}.cursorhooks-lock` },
      { role: 'ledger', state: 'stale', path: `${where.ledger}.cursorhooks-lock` },
    ]);
  });

  it('leaves out a lock that cannot be inspected (red: status throws on an unreadable lock)', async () => {
    const where = await installed();
    writeFileSync(`${where.hooks}.cursorhooks-lock`, 'x');
    const fs = wrapSeam((call, path) => {
      if (path?.endsWith('.cursorhooks-lock') && call !== 'readdir') throw errno('EIO');
    });
    const s = await status(where, { fs });
    expect(s.locks).toEqual([]);
  });
});

describe('the owned entry and the next step', () => {
  it('reports an entry moved out of stop as outside-stop, and release (red: it reads as owned or unknown)', async () => {
    const where = await installed();
    const moved = FOREIGN.replace('"hooks":{', `"hooks":{"beforeSubmitPrompt":[${ours}],`);
    writeFileSync(where.hooks, moved);
    const s = await status(where);
    expect(s.owned).toMatchObject({ state: 'outside-stop', reason: 'owner-outside-stop' });
    expect(s.nextStep).toMatchObject({ code: 'release', command: 'release' });
    expect(s.nextStep.with).toBeNull();
  });

  it('reports unknown with unexpected-failure when the planner throws something else (red: a bug reads as a state)', async () => {
    const where = await installed();
    // A foreign edit: the Repair plan is no clean no-op, so the owner is verified.
    writeFileSync(where.hooks, where.document.replace('"other":true', '"other":false'));
    const planner: StatusPlanner = {
      ...defaultPlanner(),
      plan: defaultPlanner().plan.bind(defaultPlanner()),
      renderArgv: defaultPlanner().renderArgv.bind(defaultPlanner()),
      contracts: defaultPlanner().contracts.bind(defaultPlanner()),
      verifyOwned: () => {
        throw new Error('odd');
      },
    };
    const s = await status(where, { planner });
    expect(s.owned).toEqual({
      state: 'unknown',
      repairable: false,
      reason: 'unexpected-failure',
      unowned: [],
    });
    expect(s.nextStep.code).toBe('release');
  });

  it('says refresh with the receipt`s spec and shell for a foreign edit (red: install is named without its spec)', async () => {
    const where = await installed();
    writeFileSync(where.hooks, where.document.replace('"other":true', '"other":false'));
    const s = await status(where);
    // Red: a drifted rest is reported repairable, or names foreign entries as ours.
    expect(s.owned).toEqual({
      state: 'remainder-drift',
      repairable: false,
      reason: undefined,
      unowned: [],
    });
    expect(s.nextStep).toEqual({
      code: 'refresh',
      command: 'install',
      with: { spec: SPEC, shell: SHELL },
      sentence: NEXT_STEP_SENTENCES.refresh,
    });
  });

  it('says repair, with no spec, for an entry deleted alone (red: repair carries a spec it takes from the ledger)', async () => {
    const where = await installed();
    writeFileSync(where.hooks, FOREIGN);
    const s = await status(where);
    expect(s.owned).toEqual({
      state: 'absent',
      repairable: true,
      reason: 'owner-absent',
      unowned: [],
    });
    expect(s.nextStep).toEqual({
      code: 'repair',
      command: 'repair',
      with: null,
      sentence: NEXT_STEP_SENTENCES.repair,
    });
  });

  it('says none with no command for an owned entry (red: a command is offered for nothing)', async () => {
    const s = await status(await installed());
    expect(s.nextStep).toEqual({
      code: 'none',
      command: null,
      with: null,
      sentence: NEXT_STEP_SENTENCES.none,
    });
    expect(s.owned).toEqual({ state: 'owned', repairable: false, reason: undefined, unowned: [] });
  });

  it('says finish with the interrupted update and its own spec (red: finish names no command, or the old spec)', async () => {
    const where = await installed();
    const { record, after } = pendingUpdate(
      await recordOf(where),
      text(where.document),
      OTHER_SPEC,
    );
    writeRecord(where, record);
    writeFileSync(where.hooks, after);
    const s = await status(where);
    expect(s.ledger.pending).toBe('forward');
    expect(s.owned.state).toBe('owned');
    expect(s.nextStep).toEqual({
      code: 'finish',
      command: 'update',
      with: { spec: OTHER_SPEC, shell: SHELL },
      sentence: NEXT_STEP_SENTENCES.finish,
    });
  });

  it('judges an update settled back by the old receipt, naming no finish (red: a write that never landed is finished)', async () => {
    const where = await installed();
    const { record } = pendingUpdate(await recordOf(where), text(where.document), OTHER_SPEC);
    writeRecord(where, record);
    const s = await status(where);
    expect(s.ledger.pending).toBe('back');
    expect(s.owned.state).toBe('owned');
    expect(s.nextStep.code).toBe('none');
  });

  it('says install with the removed receipt`s spec after a remove (red: the removed spec is forgotten)', async () => {
    const where = await installed();
    expect((await operate(where, Operation.Remove)).status).toBe('done');
    const s = await status(where);
    expect(s.owned.state).toBe('removed');
    expect(s.nextStep).toMatchObject({
      code: 'install',
      command: 'install',
      with: { spec: SPEC, shell: SHELL },
    });
  });

  it("after a release lists the entry unowned and kept as the user's (none), then install with the released spec once deleted (red: the released entry is invisible, or a kept entry is nagged about)", async () => {
    const where = await installed();
    await release({ hooksFile: where.hooks, ledger: where.ledger });
    const s = await status(where);
    expect(s.owned).toEqual({
      state: 'released',
      repairable: false,
      reason: undefined,
      unowned: [{ event: 'stop', index: 1 }],
    });
    expect(s.nextStep).toEqual({
      code: 'none',
      command: null,
      with: null,
      sentence: KEPT_SENTENCE,
    });
    writeFileSync(where.hooks, FOREIGN);
    const after = await status(where);
    expect(after.owned).toMatchObject({ state: 'released', unowned: [] });
    expect(after.nextStep).toMatchObject({
      code: 'install',
      command: 'install',
      with: { spec: SPEC, shell: SHELL },
    });
  });

  it('lists entries running the host`s own spec in document order across events (red: unowned entries go unseen or unsorted)', async () => {
    const where = workspace();
    const doc = `{"version":1,"hooks":{"stop":[{"command":"x"},${ours},${ours}],"afterFileEdit":[${ours}]}}`;
    writeFileSync(where.hooks, doc);
    const s = await status(where, { spec: SPEC, shell: SHELL });
    expect(s.owned.unowned).toEqual([
      { event: 'afterFileEdit', index: 0 },
      { event: 'stop', index: 1 },
      { event: 'stop', index: 2 },
    ]);
    expect(s.nextStep.code).toBe('review-entry');
    // The spec alone, without a shell, renders nothing to look for.
    expect((await status(where, { spec: SPEC })).owned.unowned).toEqual([]);
    expect((await status(where, { shell: SHELL })).owned.unowned).toEqual([]);
  });

  it('lists nothing for a spec whose shell has no contract here, and names register-contract, not an install line that would refuse (red: an unknown shell throws, or the printed install refuses shell-unknown)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, `{"version":1,"hooks":{"stop":[${ours}]}}`);
    const s = await status(where, { spec: SPEC, shell: 'no-such-shell' });
    expect(s.owned.unowned).toEqual([]);
    expect(s.nextStep).toMatchObject({ code: 'register-contract', command: null, with: null });
  });

  it('says register-contract when the receipt`s shell is not registered (red: an unknown contract reads as a broken entry)', async () => {
    const where = await installed();
    const record = await recordOf(where);
    const receipt = record.receipt;
    if (receipt === null) throw new Error('no receipt');
    writeRecord(where, { ...record, receipt: { ...receipt, shell: 'unregistered-shell' } });
    const s = await status(where);
    expect(s.nextStep).toEqual({
      code: 'register-contract',
      command: null,
      with: null,
      sentence: NEXT_STEP_SENTENCES['register-contract'],
    });
  });

  it('says register-contract when only the pending write`s shell is unknown (red: the intended receipt is not checked)', async () => {
    const where = await installed();
    const { record } = pendingUpdate(await recordOf(where), text(where.document), OTHER_SPEC);
    const intended = record.pending?.intended;
    if (intended == null) throw new Error('no intended receipt');
    writeRecord(where, {
      ...record,
      pending: {
        operation: Operation.Update,
        intended: { ...intended, shell: 'unregistered' },
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
    });
    expect((await status(where)).nextStep.code).toBe('register-contract');
  });

  it('says release for an interrupted install whose entry was edited, though nothing is owned (red: unresolved reads as not installed)', async () => {
    const where = await installed();
    const { receipt } = await recordOf(where);
    writeRecord(where, {
      generation: 0,
      receipt: null,
      removed: null,
      released: null,
      pending: {
        operation: Operation.Install,
        intended: receipt,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
    writeFileSync(where.hooks, where.document.replace('"timeout":5', '"timeout":6'));
    const s = await status(where);
    expect(s.ledger.pending).toBe('unresolved');
    expect(s.owned.state).toBe('not-installed');
    expect(s.nextStep).toMatchObject({ code: 'release', command: 'release' });
  });

  it('says install with no spec for a record that owns, removed and released nothing (red: a bare record throws)', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    writeRecord(where, {
      generation: 4,
      receipt: null,
      removed: null,
      released: null,
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    });
    const s = await status(where);
    expect(s.ledger.generation).toBe(4);
    expect(s.nextStep).toMatchObject({ code: 'install', command: 'install', with: null });
  });

  it('sorts the unowned entries of several commands by event, then index (red: they come in command order)', async () => {
    const where = await installed();
    await release({ hooksFile: where.hooks, ledger: where.ledger });
    const other = JSON.stringify({ type: 'command', command: OTHER_COMMAND, timeout: 5 });
    const doc = `{"version":1,"hooks":{"stop":[${other},{"command":"x"},${ours}],"afterFileEdit":[{"command":"x"},{"command":"y"},{"command":"z"},${ours}]}}`;
    writeFileSync(where.hooks, doc);
    const s = await status(where, { spec: OTHER_SPEC, shell: SHELL });
    expect(s.owned.unowned).toEqual([
      { event: 'afterFileEdit', index: 3 },
      { event: 'stop', index: 0 },
      { event: 'stop', index: 2 },
    ]);
  });

  it('names the receipt`s spec, not a pending write`s, for any step but finish (red: refresh installs the spec of a write that never landed)', async () => {
    const where = await installed();
    const { record } = pendingUpdate(await recordOf(where), text(where.document), OTHER_SPEC);
    writeRecord(where, record);
    writeFileSync(where.hooks, where.document.replace('"other":true', '"other":false'));
    const s = await status(where);
    expect(s.ledger.pending).toBe('back');
    expect(s.nextStep).toMatchObject({
      code: 'refresh',
      command: 'install',
      with: { spec: SPEC, shell: SHELL },
    });
  });
});
