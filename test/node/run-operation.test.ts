import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Operation } from '../../src/index.js';
import { HostIOError } from '../../src/node/errors.js';
import { readLedger } from '../../src/node/ledger/ledger.js';
import { ExecutableUnverifiedError } from '../../src/node/status/executable-unverified.js';
import type { HostPathChecker } from '../../src/node/status/path-report.js';
import { COMMAND, ENTRY, OTHER_SPEC, SPEC } from '../planner/support.js';
import {
  decode,
  errno,
  failing,
  isDataTemp,
  oneCheckFailed,
  operate,
  strays,
  workspace,
  wrapSeam,
} from './support.js';

const FOREIGN = '{\n\t"version": 1,\n\t"hooks": {"stop": [{"command": "foreign"}]}\n}\n';

async function recordOf(where: { hooks: string; ledger: string }) {
  return (await readLedger(where.ledger)).records.get(where.hooks);
}

describe('runOperation', () => {
  it('installs, records generation 1 and leaves only the two files, or the lifecycle breaks', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const outcome = await operate(where, Operation.Install);
    expect(outcome).toMatchObject({ status: 'done', existed: true, generation: 1, attempts: 1 });
    expect(decode(outcome.before)).toBe(FOREIGN);
    const written = readFileSync(where.hooks, 'utf8');
    expect(decode(outcome.after)).toBe(written);
    expect(written).toContain('"foreign"');
    expect(JSON.parse(written).hooks.stop[1]).toEqual(ENTRY);
    const record = await recordOf(where);
    expect(record).toMatchObject({ generation: 1, pending: null, removed: null });
    expect(record?.receipt).toEqual(outcome.receipt);
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('reinstalls as a no-op with one entry, or a reinstall duplicates the hook', async () => {
    const where = workspace();
    await operate(where, Operation.Install);
    const first = readFileSync(where.hooks, 'utf8');
    const again = await operate(where, Operation.Install);
    expect(again).toMatchObject({ status: 'no-op', generation: 1 });
    expect(readFileSync(where.hooks, 'utf8')).toBe(first);
  });

  it('updates, removes with a removal record, and installs again, or a step loses track', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const installed = await operate(where, Operation.Install);
    const updated = await operate(where, Operation.Update, { spec: OTHER_SPEC });
    expect(updated).toMatchObject({ status: 'done', generation: 2 });
    const removed = await operate(where, Operation.Remove);
    expect(removed).toMatchObject({ status: 'done', generation: 3, receipt: null });
    expect(JSON.parse(readFileSync(where.hooks, 'utf8'))).toEqual({
      version: 1,
      hooks: { stop: [{ command: 'foreign' }] },
    });
    expect(await recordOf(where)).toMatchObject({
      generation: 3,
      receipt: null,
      removed: { generation: 3, receipt: updated.receipt },
    });
    const reinstalled = await operate(where, Operation.Install);
    expect(reinstalled).toMatchObject({
      status: 'done',
      generation: 4,
      receipt: installed.receipt,
    });
  });

  it('repairs a deleted entry from the ledger receipt, checking its paths, or repair cannot use the ledger', async () => {
    const where = workspace();
    await operate(where, Operation.Install);
    writeFileSync(where.hooks, '{"version":1,"hooks":{"stop":[]}}');
    let checked: unknown;
    const repaired = await operate(where, Operation.Repair, {
      spec: null,
      checkHostPaths: async (spec) => {
        checked = spec;
        return { verified: true, checks: [] };
      },
    });
    expect(repaired.status).toBe('done');
    expect(checked).toEqual(SPEC);
    expect(readFileSync(where.hooks, 'utf8')).toContain(JSON.stringify(COMMAND).slice(1, -1));
  });

  it('refuses an install over a hand-written copy, writing nothing, or a duplicate is made', async () => {
    const where = workspace();
    await operate(where, Operation.Install);
    const bytes = readFileSync(where.hooks, 'utf8');
    const other = workspace();
    writeFileSync(other.hooks, bytes);
    const refused = await operate(other, Operation.Install);
    expect(refused).toMatchObject({ status: 'refused', generation: 0 });
    expect(refused.error?.reason).toBe('command-exists');
    expect(readFileSync(other.hooks, 'utf8')).toBe(bytes);
    expect(existsSync(other.ledger)).toBe(false);
  });

  it('passes executableVerified only when every host check passed, or a failed check is vouched for', async () => {
    const where = workspace();
    const refused = await operate(where, Operation.Install, { checkHostPaths: oneCheckFailed });
    expect(refused.status).toBe('refused');
    expect(refused.error?.reason).toBe('executable-unverified');
    expect(refused.hostPaths?.checks[0]?.check).toBe('executable-bit');
    expect(existsSync(where.hooks)).toBe(false);
  });

  it('executable-unverified carries the first failed check, before any not performed (red: a host can only show "not attested", or a not-performed check is named over the failure)', async () => {
    const where = workspace();
    const failedSecond: HostPathChecker = async (spec) => ({
      verified: false,
      checks: [
        { role: 'selector', check: 'owner', status: 'not-performed', path: spec.selector },
        ...(await oneCheckFailed(spec)).checks,
      ],
    });
    const refused = await operate(where, Operation.Install, { checkHostPaths: failedSecond });
    expect(refused.error).toBeInstanceOf(ExecutableUnverifiedError);
    expect((refused.error as ExecutableUnverifiedError).check).toMatchObject({
      role: 'executable',
      check: 'executable-bit',
      path: SPEC.executable,
    });
    const unmeasured: HostPathChecker = async (spec) => ({
      verified: false,
      checks: [{ role: 'selector', check: 'owner', status: 'not-performed', path: spec.selector }],
    });
    const vouchless = await operate(where, Operation.Install, { checkHostPaths: unmeasured });
    expect((vouchless.error as ExecutableUnverifiedError).check.check).toBe('owner');
  });

  it.each([
    ['absent', undefined],
    ['present', FOREIGN],
  ])(
    'a directory that refuses new files, hook file %s: directory-not-writable naming the directory, nothing written (red: permission-denied about the hook file, naming no directory)',
    async (_, before) => {
      const where = workspace();
      if (before !== undefined) writeFileSync(where.hooks, before);
      // Every side file beside the hook file (the lock's staging file first) is refused, as a
      // mode 0555 directory refuses it to a user who is not root.
      const fs = failing('open', 'EACCES', (path) => path.startsWith(`${where.hooks}.`));
      const outcome = await operate(where, Operation.Install, { fs });
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toBeInstanceOf(HostIOError);
      expect(outcome.error).toMatchObject({
        reason: 'directory-not-writable',
        code: 'EACCES',
        role: 'directory',
        path: dirname(where.hooks),
      });
      expect(outcome.error?.message).toContain('make the directory writable');
      expect(existsSync(where.hooks) ? readFileSync(where.hooks, 'utf8') : undefined).toBe(before);
    },
  );

  it('dry-run plans without writing, locking or recording, or a preview changes the file', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const mtime = statSync(where.hooks).mtimeMs;
    const lockOrWrite = new Set<string>();
    const fs = wrapSeam((call) => {
      if (['link', 'rename', 'mkdir', 'write', 'unlink'].includes(call)) lockOrWrite.add(call);
    });
    const preview = await operate(where, Operation.Install, { dryRun: true, fs });
    expect(preview.status).toBe('dry-run');
    expect(decode(preview.after)).toContain('"foreign"');
    expect(preview.after).not.toEqual(preview.before);
    expect([...lockOrWrite]).toEqual([]);
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
    expect(statSync(where.hooks).mtimeMs).toBe(mtime);
    expect(strays(where.dir, 'hooks.json')).toEqual([]);
  });

  it('re-plans after a foreign write between plan and rename, keeping it, or a foreign edit is lost', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let wrote = false;
    const fs = wrapSeam((call, path) => {
      if (
        call === 'fsync' &&
        path !== undefined &&
        isDataTemp(path) &&
        !path.includes('ledger') &&
        !wrote
      ) {
        wrote = true;
        writeFileSync(where.hooks, FOREIGN.replace('foreign', 'edited meanwhile'));
      }
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'done', attempts: 2, generation: 1 });
    const written = readFileSync(where.hooks, 'utf8');
    expect(written).toContain('edited meanwhile');
    expect(JSON.parse(written).hooks.stop).toHaveLength(2);
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('refuses when a foreign write makes the plan impossible, writing nothing, or it is overwritten', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const clash = `{"version":1,"hooks":{"stop":[{"command":${JSON.stringify(COMMAND)},"timeout":9}]}}`;
    const fs = wrapSeam((call, path) => {
      if (call === 'fsync' && path !== undefined && isDataTemp(path) && !path.includes('ledger')) {
        writeFileSync(where.hooks, clash);
      }
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'refused', attempts: 2, generation: 0 });
    expect(outcome.error?.reason).toBe('command-exists');
    expect(readFileSync(where.hooks, 'utf8')).toBe(clash);
    expect((await recordOf(where))?.pending ?? null).toBeNull();
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('gives up with file-changed after the bounded re-plans, or a busy writer loops forever', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let edits = 0;
    const fs = wrapSeam((call, path) => {
      if (call === 'fsync' && path !== undefined && isDataTemp(path) && !path.includes('ledger')) {
        writeFileSync(where.hooks, FOREIGN.replace('foreign', `edit ${++edits}`));
      }
    });
    const outcome = await operate(where, Operation.Install, { fs, maxReplans: 1 });
    expect(outcome).toMatchObject({ status: 'failed', attempts: 2 });
    expect(outcome.error?.reason).toBe('file-changed');
    expect(readFileSync(where.hooks, 'utf8')).toContain('edit 2');
  });

  it.each([
    ['{"cursorhooksLedger":5,"files":{}}', 'ledger-version-unsupported'],
    ['{"files":{}}', 'ledger-malformed'],
    ['not json', 'ledger-malformed'],
  ])(
    'refuses the ledger %s with its reason and never rewrites it, or host state is destroyed',
    async (ledger, reason) => {
      const where = workspace();
      writeFileSync(where.ledger, ledger);
      const outcome = await operate(where, Operation.Install);
      expect(outcome).toMatchObject({ status: 'refused' });
      expect(outcome.error?.reason).toBe(reason);
      expect(readFileSync(where.ledger, 'utf8')).toBe(ledger);
      expect(existsSync(where.hooks)).toBe(false);
    },
  );

  it('fails a full disk cleanly: old bytes, no pending record, no side file, or a failure corrupts', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const fs = failing('write', 'ENOSPC', (p) => isDataTemp(p) && p.startsWith(where.hooks));
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'failed', generation: 0 });
    expect(outcome.error).toMatchObject({ reason: 'disk-full', code: 'ENOSPC' });
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
    expect((await recordOf(where))?.pending).toBeNull();
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('refuses a hard-linked hook file before recording anything, or the link splits off', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    linkSync(where.hooks, join(where.dir, 'shared.json'));
    const outcome = await operate(where, Operation.Install);
    expect(outcome).toMatchObject({ status: 'failed', generation: 0 });
    expect(outcome.error?.reason).toBe('file-hard-linked');
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
    expect(await recordOf(where)).toBeUndefined();
    expect(statSync(where.hooks).nlink).toBe(2);
  });

  it('installs through a symlink, keyed by the real path, or dotfile setups break', async () => {
    const where = workspace();
    mkdirSync(join(where.dir, 'dotfiles'));
    const real = join(where.dir, 'dotfiles', 'hooks.json');
    writeFileSync(real, FOREIGN, { mode: 0o600 });
    symlinkSync(real, where.hooks);
    const outcome = await operate(where, Operation.Install);
    expect(outcome).toMatchObject({ status: 'done', realPath: real });
    expect(lstatSync(where.hooks).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o600);
    expect([...(await readLedger(where.ledger)).records.keys()]).toEqual([real]);
  });

  it('reports a failure after the rename with the new bytes committed, or the ledger lags the file', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    let renamed = false;
    const fs = wrapSeam((call, path) => {
      if (call === 'rename' && path?.startsWith(`${where.hooks}.cursorhooks-`)) renamed = true;
      // The directory flush right after the hook file's rename fails, once.
      else if (call === 'fsync' && path === where.dir && renamed) {
        renamed = false;
        throw errno('EIO');
      }
    });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome).toMatchObject({ status: 'failed', generation: 1 });
    expect(outcome.error).toMatchObject({ reason: 'io-failure', code: 'EIO' });
    expect(decode(outcome.after)).toBe(readFileSync(where.hooks, 'utf8'));
    expect(outcome.after).not.toEqual(outcome.before);
    expect(await recordOf(where)).toMatchObject({
      generation: 1,
      pending: null,
      receipt: outcome.receipt,
    });
    expect(strays(where.dir, 'hooks.json', 'ledger.json')).toEqual([]);
  });

  it('times out on a live foreign lock, writing nothing, or a held lock is ignored', async () => {
    const where = workspace();
    writeFileSync(where.hooks, FOREIGN);
    const owner = { pid: process.ppid, hostname: hostname(), acquiredAt: 'x', nonce: 'n' };
    writeFileSync(`${where.hooks}.cursorhooks-lock`, JSON.stringify(owner));
    const outcome = await operate(where, Operation.Install, { lockTimeoutMs: 30 });
    // Planned once without the lock, then the lock could not be taken: nothing written.
    expect(outcome).toMatchObject({ status: 'failed', attempts: 1 });
    expect(outcome.error?.reason).toBe('lock-timeout');
    expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
    expect(existsSync(where.ledger)).toBe(false);
  });
});
