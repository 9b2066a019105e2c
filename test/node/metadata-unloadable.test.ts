// The one metadata decision, taken from really loading @napi-rs/xattr: a broken binary where
// the loader looks, or no module at all, and a write to an existing file with an ACL and an
// extended attribute refuses with the file, its ACL and its attribute unchanged, unless the loss
// is accepted by name; status says what the write will do. With the tools from Debian's `acl`
// and `attr` packages (.ci/run installs them).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readStatus } from '../../src/node/status/status.js';
import { type FsSeam, nodeFs, xattrSeam } from '../../src/node/write/fs-seam.js';
import { requireXattrs } from '../../src/node/write/xattr-native.js';
import { Operation } from '../../src/planner/operation.js';
import { aclToolsHere, tool } from './acl-tools.js';
import { operate, strays, tempDir, workspace } from './support.js';
import { absentInstall, binaryHere, brokenInstall, pnpmInstall } from './xattr-layouts.js';

const ready = aclToolsHere && binaryHere;
if (!ready)
  console.warn('skipped: needs linux-x64 and setfacl/getfattr (apt-get install acl attr)');

const FOREIGN = '{"version":1,"hooks":{"stop":[{"command":"./audit.sh"}]}}\n';

/** The hook file of the issue: an ACL for daemon, a user attribute, a default ACL above it. */
function guarded(): ReturnType<typeof workspace> {
  const where = workspace();
  writeFileSync(where.hooks, FOREIGN);
  tool('setfacl', '-m', 'u:daemon:r', where.hooks);
  tool('setfattr', '-n', 'user.keep', '-v', 'yes', where.hooks);
  tool('setfacl', '-d', '-m', 'u:nobody:rw', where.dir);
  return where;
}

const acl = (path: string) => tool('getfacl', '--omit-header', '--absolute-names', path);
const attrs = (path: string) => tool('getfattr', '--absolute-names', '-d', path);

/** The real seam with the module loaded as a require from `from` loads it. */
function seamFrom(from: string): FsSeam {
  const module = requireXattrs(from);
  return { ...nodeFs, ...xattrSeam(() => module, false) };
}

describe.skipIf(!ready)('a native module that cannot load', () => {
  it.each([
    ['a garbage binary where the loader looks', brokenInstall],
    ['no module at all', absentInstall],
  ])(
    '%s: does not load (red: the decision comes from package folders, not a load)',
    (_, layout) => {
      expect(requireXattrs(layout(tempDir()))).toBeUndefined();
    },
  );

  it.each([
    ['a garbage binary', brokenInstall],
    ['no module', absentInstall],
  ])(
    '%s: install refuses metadata-not-preserved, the file, its ACL and its attribute unchanged (red: the write quietly drops them and the default ACL widens access)',
    async (_, layout) => {
      const where = guarded();
      const before = { acl: acl(where.hooks), attrs: attrs(where.hooks) };
      const fs = seamFrom(layout(tempDir()));
      const outcome = await operate(where, Operation.Install, { fs });
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toMatchObject({
        reason: 'metadata-not-preserved',
        role: 'hook-file',
        path: where.hooks,
      });
      expect(outcome.metadata).toEqual({
        performed: false,
        why: 'module-unloadable',
        writes: 'refuse',
      });
      expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN);
      expect(acl(where.hooks)).toBe(before.acl);
      expect(acl(where.hooks)).not.toContain('nobody');
      expect(attrs(where.hooks)).toBe(before.attrs);
      expect(strays(where.dir, 'hooks.json')).toEqual([]);
    },
  );

  it('refuses a second install too, at the ledger it cannot see into, with nothing changed (red: the ledger is replaced blind)', async () => {
    const where = workspace();
    expect((await operate(where, Operation.Install)).status).toBe('done');
    const ledger = readFileSync(where.ledger, 'utf8');
    const hooks = readFileSync(where.hooks, 'utf8');
    const fs = seamFrom(absentInstall(tempDir()));
    const outcome = await operate(where, Operation.Remove, { fs });
    expect(outcome.error).toMatchObject({ reason: 'metadata-not-preserved' });
    expect(readFileSync(where.ledger, 'utf8')).toBe(ledger);
    expect(readFileSync(where.hooks, 'utf8')).toBe(hooks);
  });

  it('writes when the loss is accepted, and says so (red: the flag is ignored, or the outcome hides the loss)', async () => {
    const where = guarded();
    const fs = seamFrom(brokenInstall(tempDir()));
    const outcome = await operate(where, Operation.Install, { fs, acceptMetadataLoss: true });
    expect(outcome.status).toBe('done');
    expect(outcome.metadata).toEqual({
      performed: false,
      why: 'module-unloadable',
      writes: 'accept-loss',
    });
    expect(readFileSync(where.hooks, 'utf8')).not.toBe(FOREIGN);
    // The accepted loss, as it is: the daemon entry and the attribute gone.
    expect(acl(where.hooks)).not.toContain('daemon');
    expect(attrs(where.hooks)).not.toContain('user.keep');
  });

  it.each([
    ['a garbage binary', brokenInstall],
    ['no module', absentInstall],
  ])(
    '%s: status says the check was not made and what a write will do (red: status says checked while writes drop the ACL)',
    async (_, layout) => {
      const where = guarded();
      const fs = seamFrom(layout(tempDir()));
      const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger, fs });
      expect(status.metadata).toEqual({
        performed: false,
        why: 'module-unloadable',
        writes: 'refuse',
      });
      const accepting = await readStatus({
        hooksFile: where.hooks,
        ledger: where.ledger,
        fs,
        acceptMetadataLoss: true,
      });
      expect(accepting.metadata).toMatchObject({ writes: 'accept-loss' });
    },
  );

  it('status names no write as the next step while that write would refuse, and the usual one once the loss is accepted (red: status advises an install that refuses)', async () => {
    const fs = seamFrom(absentInstall(tempDir()));
    const where = guarded();
    const blocked = await readStatus({ hooksFile: where.hooks, ledger: where.ledger, fs });
    expect(blocked.nextStep).toMatchObject({ code: 'fix-metadata-module', command: null });
    expect((await operate(where, Operation.Install, { fs })).error?.reason).toBe(
      'metadata-not-preserved',
    );
    const accepting = await readStatus({
      hooksFile: where.hooks,
      ledger: where.ledger,
      fs,
      acceptMetadataLoss: true,
    });
    expect(accepting.nextStep).toMatchObject({ code: 'install', command: 'install' });
    // Nothing to replace: the usual first step, which writes.
    const fresh = workspace();
    const empty = await readStatus({ hooksFile: fresh.hooks, ledger: fresh.ledger, fs });
    expect(empty.nextStep).toMatchObject({ code: 'install', command: 'install' });
  });

  it('writes a new file without the module, nothing there to lose (red: every first install refuses)', async () => {
    const where = workspace();
    const fs = seamFrom(absentInstall(tempDir()));
    expect((await operate(where, Operation.Install, { fs })).status).toBe('done');
  });
});

describe.skipIf(!ready)('a native module that loads', () => {
  it('loads from a pnpm layout, where the binary is no neighbour of the link, and status and the write agree (red: the folder walk says unavailable while require loads it)', async () => {
    const from = pnpmInstall(tempDir());
    expect(requireXattrs(from)).toBeDefined();
    const where = guarded();
    const before = { acl: acl(where.hooks), attrs: attrs(where.hooks) };
    const fs = seamFrom(from);
    const status = await readStatus({ hooksFile: where.hooks, ledger: where.ledger, fs });
    expect(status.metadata).toEqual({ performed: true, writes: 'preserve' });
    const outcome = await operate(where, Operation.Install, { fs });
    expect(outcome.status).toBe('done');
    expect(outcome.metadata).toEqual({ performed: true, writes: 'preserve' });
    expect(acl(where.hooks)).toBe(before.acl);
    expect(attrs(where.hooks)).toBe(before.attrs);
  });

  it('is the module the kit finds itself, through both seams (red: the default loader or the synchronous seam sees nothing)', async () => {
    const where = guarded();
    const before = acl(where.hooks);
    const { blockingFs } = await import('../../src/node/write/fs-seam.js');
    expect(await nodeFs.xattrsLoaded()).toBe(true);
    expect(await blockingFs.xattrsLoaded()).toBe(true);
    expect((await operate(where, Operation.Install, { fs: blockingFs })).status).toBe('done');
    expect(acl(where.hooks)).toBe(before);
    expect(attrs(where.hooks)).toContain('user.keep="yes"');
  });
});
