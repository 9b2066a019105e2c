// readStatus's steps from what outlives the entry's bytes: the last stop the heartbeat records
// (requalify, fix-heartbeat-path) and the contract file a receipt was installed with. In-process,
// so the mutation runs of status.ts see them (liveness.test.ts goes there with more set-up).
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { sha256Hex } from '../../src/json/sha256.js';
import { encodeLedger, type LedgerRecord } from '../../src/node/ledger/ledger.js';
import {
  CONTRACT_FILE_SENTENCES,
  NEXT_STEP_SENTENCES,
  QUALIFY_STATE_DIRECTORY,
  type StatusPlanner,
} from '../../src/node/status/status.js';
import { disableHook } from '../../src/node/toggle.js';
import { defaultPlanner } from '../../src/planner/default.js';
import { SHELL } from '../planner/support.js';
import { status } from './status-support.js';
import {
  allChecksPassed,
  errno,
  operate,
  recordOf,
  tempDir,
  type Where,
  workspace,
  wrapSeam,
} from './support.js';

/** The version of the contract the kit tests install with. */
const QUALIFIED = '3.22.12';

const beat = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: 1,
    stops: 1,
    lastStop: {
      at: '2099-01-01T00:00:00.000Z',
      cursorVersion: QUALIFIED,
      verdict: 'qualified',
      status: 'completed',
      loopCount: 0,
      ...fields,
    },
  });

async function withHeartbeat(where: Where = workspace()): Promise<Where & { heartbeat: string }> {
  const heartbeat = join(where.dir, 'state', 'heartbeat.json');
  mkdirSync(dirname(heartbeat), { recursive: true });
  expect((await operate(where, Operation.Install, { heartbeat })).status).toBe('done');
  return { ...where, heartbeat };
}

/** The default planner, its SHELL contract given another family (undefined: none). */
function plannerWithFamily(family: string | undefined): StatusPlanner {
  const planner = defaultPlanner();
  return {
    plan: planner.plan.bind(planner),
    verifyOwned: planner.verifyOwned.bind(planner),
    renderArgv: planner.renderArgv.bind(planner),
    contracts: () =>
      planner
        .contracts()
        .map((c) => (c.id === SHELL ? Object.assign(Object.create(c), { family }) : c)),
  };
}

describe('requalify', () => {
  it('is named after a stop from another Cursor version, with the family and a state directory beside the ledger (red: a Cursor update goes unnoticed)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9', verdict: null }));
    const s = await status(where);
    expect(s.liveness).toMatchObject({ state: 'seen' });
    expect(s.nextStep).toEqual({
      code: 'requalify',
      command: 'qualify start',
      with: null,
      qualify: { family: 'posix-single-quote', stateDir: join(where.dir, QUALIFY_STATE_DIRECTORY) },
      sentence: NEXT_STEP_SENTENCES.requalify,
    });
  });

  it('is named for the verdict version-differs with no version (red: the verdict is ignored)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: null, verdict: 'version-differs' }));
    expect((await status(where)).nextStep.code).toBe('requalify');
  });

  it.each([
    ['the qualified version', beat()],
    ['no version and no verdict against it', beat({ cursorVersion: null, verdict: null })],
    ['a simulated stop of another version', beat({ cursorVersion: '9.9.9', simulated: true })],
  ])('is not named after %s (red: requalify is asked for nothing)', async (_, text) => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, text);
    const s = await status(where);
    expect(s.nextStep).toMatchObject({ code: 'none', sentence: NEXT_STEP_SENTENCES.none });
    expect('qualify' in s.nextStep).toBe(false);
  });

  it('is not named before the first stop (red: no stop reads as another version)', async () => {
    const s = await status(await withHeartbeat());
    expect(s.liveness).toMatchObject({ state: 'no-stop' });
    expect(s.nextStep.code).toBe('none');
  });

  it('is not named while the hook is disabled: no receipt says which contract runs (red: a disabled hook asks for a qualification)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9' }));
    const toggle = {
      hooksFile: where.hooks,
      ledger: where.ledger,
      checkHostPaths: allChecksPassed,
    };
    expect((await disableHook(toggle)).status).toBe('done');
    const s = await status(where);
    expect(s.owned.state).toBe('disabled');
    expect(s.nextStep.code).toBe('none');
  });

  it('waits behind a state the user must fix first (red: requalify hides an edited entry)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9' }));
    const text = readFileSync(where.hooks, 'utf8');
    writeFileSync(where.hooks, text.replace(/"timeout": ?5/, '"timeout": 9'));
    expect((await status(where)).nextStep).toMatchObject({ code: 'release', command: 'release' });
  });

  it.each([
    ['a Windows family', 'powershell-stop'],
    ['no family', undefined],
  ])(
    'prints no qualify start for %s, which this platform cannot probe as printed (red: a command that cannot run is printed)',
    async (_, family) => {
      const where = await withHeartbeat();
      writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9' }));
      const s = await status(where, { planner: plannerWithFamily(family) });
      expect(s.nextStep).toMatchObject({ code: 'requalify', command: null, with: null });
      expect('qualify' in s.nextStep).toBe(false);
    },
  );

  it('prints no qualify start for a family this kit does not know (red: an unknown family throws)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9' }));
    const s = await status(where, { planner: plannerWithFamily('no-such-family') });
    expect(s.nextStep).toMatchObject({ code: 'requalify', command: null });
  });

  it('qualifies the receipt`s own contract, not the first one registered (red: another contract`s family is named)', async () => {
    const where = await withHeartbeat();
    writeFileSync(where.heartbeat, beat({ cursorVersion: '9.9.9' }));
    const planner = defaultPlanner();
    const real = planner.contracts();
    const ours = real.find((c) => c.id === SHELL);
    const decoy = Object.assign(Object.create(ours ?? null), {
      id: 'decoy',
      family: 'powershell-stop',
    });
    const s = await status(where, {
      planner: {
        plan: planner.plan.bind(planner),
        verifyOwned: planner.verifyOwned.bind(planner),
        renderArgv: planner.renderArgv.bind(planner),
        contracts: () => [decoy, ...real],
      },
    });
    expect(s.nextStep).toMatchObject({
      code: 'requalify',
      command: 'qualify start',
      qualify: { family: 'posix-single-quote' },
    });
  });

  it('puts the state directory beside the ledger`s real path (red: it lands beside a link)', async () => {
    const real = tempDir();
    const where = workspace();
    const links = { ...where, ledger: join(where.dir, 'linked.json') };
    writeFileSync(join(real, 'l.json'), encodeLedger(new Map()));
    symlinkSync(join(real, 'l.json'), links.ledger);
    const beating = await withHeartbeat(links);
    writeFileSync(beating.heartbeat, beat({ cursorVersion: '9.9.9' }));
    const s = await status(beating);
    expect(s.nextStep.qualify?.stateDir).toBe(join(real, QUALIFY_STATE_DIRECTORY));
  });
});

describe('fix-heartbeat-path', () => {
  it('is named only when nothing else is to do (red: the heartbeat hides an edited entry)', async () => {
    const where = await withHeartbeat();
    rmSync(dirname(where.heartbeat), { recursive: true });
    expect((await status(where)).nextStep.code).toBe('fix-heartbeat-path');
    const text = readFileSync(where.hooks, 'utf8');
    writeFileSync(where.hooks, text.replace(/"timeout": ?5/, '"timeout": 9'));
    expect((await status(where)).nextStep.code).toBe('release');
  });
});

describe('the contract file a receipt was installed with', () => {
  const SHELL_ID = 'qualified-here';

  /** An installed workspace whose receipt names SHELL_ID, recorded from a contract file. */
  async function recorded(
    extra: (record: LedgerRecord) => Partial<LedgerRecord> = () => ({}),
  ): Promise<Where & { record: string }> {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    const installed = await recordOf(where);
    const receipt = installed.receipt;
    if (receipt === null) throw new Error('no receipt');
    const record = join(where.dir, 'record.json');
    const contractFile = {
      path: record,
      id: SHELL_ID,
      sha256: sha256Hex(new TextEncoder().encode('{}')),
    };
    const next = { ...installed, receipt: { ...receipt, shell: SHELL_ID }, contractFile };
    writeFileSync(
      where.ledger,
      encodeLedger(new Map([[where.hooks, { ...next, ...extra(next) }]])),
    );
    return { ...where, record };
  }

  it('says where it went when it is missing (red: the user is not told the record moved)', async () => {
    const where = await recorded();
    const s = await status(where);
    expect(s.contractFile).toEqual({ path: where.record, id: SHELL_ID, state: 'missing' });
    expect(s.nextStep).toEqual({
      code: 'register-contract',
      command: null,
      with: null,
      sentence: CONTRACT_FILE_SENTENCES.missing,
    });
  });

  it('says it changed for other bytes, and the plain sentence when it still holds its bytes (red: a changed grammar reads as found)', async () => {
    const where = await recorded();
    writeFileSync(where.record, '{"x":1}');
    expect((await status(where)).nextStep.sentence).toBe(CONTRACT_FILE_SENTENCES.changed);
    writeFileSync(where.record, '{}');
    const found = await status(where);
    expect(found.contractFile?.state).toBe('found');
    expect(found.nextStep.sentence).toBe(NEXT_STEP_SENTENCES['register-contract']);
  });

  it('says it cannot be read when its read fails (red: an unreadable record reads as missing)', async () => {
    const where = await recorded();
    writeFileSync(where.record, '{}');
    const fs = wrapSeam((call, path) => {
      if (call === 'open' && path === where.record) throw errno('EACCES');
    });
    expect((await status(where, { fs })).nextStep.sentence).toBe(
      CONTRACT_FILE_SENTENCES.unreadable,
    );
  });

  it('leaves the sentence to a refusal that names another step (red: every step blames the contract file)', async () => {
    const s = await status(await recorded(), {
      intent: { command: 'install', refused: 'lock-foreign' },
    });
    expect(s.nextStep).toMatchObject({
      code: 'remove-lock',
      sentence: NEXT_STEP_SENTENCES['remove-lock'],
    });
  });

  it('is null for a record that keeps none (red: a contract file is invented)', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    expect((await status(where)).contractFile).toBeNull();
    expect((await status(workspace())).contractFile).toBeNull();
  });

  it('says the plain sentence when the recorded contract is registered and another shell is not (red: a registered contract`s file is blamed)', async () => {
    const where = await recorded((record) => ({
      receipt: record.receipt === null ? null : { ...record.receipt, shell: SHELL },
      contractFile: record.contractFile === null ? null : { ...record.contractFile, id: SHELL },
      pending: {
        operation: Operation.Update,
        intended: record.receipt,
        heartbeat: null,
        disable: false,
        contractFile: null,
      },
    }));
    const s = await status(where);
    expect(s.contractFile).toMatchObject({ id: SHELL, state: 'missing' });
    expect(s.nextStep).toMatchObject({
      code: 'register-contract',
      sentence: NEXT_STEP_SENTENCES['register-contract'],
    });
  });
});
