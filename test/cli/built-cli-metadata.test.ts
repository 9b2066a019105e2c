// The repro against the built CLI, copied beside a node_modules of its own: a garbage
// binary where the module's loader looks, no module at all, and pnpm's layout. A hook file with
// an ACL for daemon and a user attribute, in a directory whose default ACL grants nobody rw:
// without a loadable module, install refuses and keeps all of it, status says what a write will
// do, and --accept-metadata-loss writes and says the loss was accepted. The real node_modules is
// only read. With the tools from Debian's `acl` and `attr` packages (.ci/run installs them).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../demo/cli-process.js';
import { aclToolsHere, tool } from '../node/acl-tools.js';
import { tempDir } from '../node/support.js';
import { absentInstall, binaryHere, brokenInstall, pnpmInstall } from '../node/xattr-layouts.js';
import { FOREIGN_CRLF, files, home, specArgs, writeHooks } from './file-support.js';

const ROOT = new URL('../../', import.meta.url);

const ready = aclToolsHere && binaryHere;
if (!ready)
  console.warn('skipped: needs linux-x64 and setfacl/getfattr (apt-get install acl attr)');

beforeAll(() => {
  if (ready) execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

/** The built CLI copied into `root/bin`, so a require from it finds only `root/node_modules`. */
function cliIn(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  for (const name of ['cli.cjs', 'cli-main.cjs']) {
    copyFileSync(join(dirname(BUILT_CLI), name), join(bin, name));
  }
  return join(bin, 'cli.cjs');
}

/** A CLI next to `layout`'s install of the module; runs a command and parses its --json result. */
function cliWith(layout: (root: string) => string) {
  const root = tempDir();
  layout(root);
  const cli = cliIn(root);
  return (...args: string[]) => {
    const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr };
  };
}

/** The hook file: an ACL for daemon, user.keep, and nobody's default ACL above it. */
function guarded() {
  const where = home();
  writeHooks(where);
  tool('setfacl', '-m', 'u:daemon:r', where.hooks);
  tool('setfattr', '-n', 'user.keep', '-v', 'yes', where.hooks);
  tool('setfacl', '-d', '-m', 'u:nobody:rw', dirname(where.hooks));
  return where;
}

const acl = (path: string) => tool('getfacl', '--omit-header', '--absolute-names', path);
const attrs = (path: string) => tool('getfattr', '--absolute-names', '-d', path);

const REFUSE = { checked: false, why: 'module-unloadable', writes: 'refuse' };

describe.skipIf(!ready)('the built CLI without a loadable xattr module', () => {
  it.each([
    ['a garbage binary where the loader looks', brokenInstall],
    ['no module (--omit=optional)', absentInstall],
  ])(
    '%s: install refuses metadata-not-preserved and keeps the file, its ACL and its attribute; status says so (red: install exits 0 with the ACL and attribute gone, nobody granted rw, and status says checked)',
    (_, layout) => {
      const run = cliWith(layout);
      const where = guarded();
      const before = { acl: acl(where.hooks), attrs: attrs(where.hooks) };
      const status = run('status', ...files(where), '--json');
      expect(status.exitCode).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        metadata: REFUSE,
        nextStep: { code: 'fix-metadata-module', command: null },
      });
      expect(run('status', ...files(where)).stdout).toContain(
        'ACLs and extended attributes: not checked (module-unloadable): the optional @napi-rs/xattr module does not load, so a write that replaces an existing file refuses (metadata-not-preserved)',
      );

      const install = run('install', ...files(where), ...specArgs(where.spec), '--json');
      expect(install.exitCode).toBe(74);
      const result = JSON.parse(install.stdout);
      expect(result).toMatchObject({ status: 'failed', metadata: REFUSE, changed: false });
      expect(result.error).toMatchObject({
        reason: 'metadata-not-preserved',
        role: 'hook-file',
        path: where.hooks,
      });
      expect(readFileSync(where.hooks, 'utf8')).toBe(FOREIGN_CRLF);
      expect(acl(where.hooks)).toBe(before.acl);
      expect(acl(where.hooks)).not.toContain('nobody');
      expect(attrs(where.hooks)).toBe(before.attrs);
    },
  );

  it('writes with --accept-metadata-loss and says the loss was accepted, in status, JSON and text (red: the flag is unknown, or the loss goes unsaid)', () => {
    const run = cliWith(brokenInstall);
    const where = guarded();
    const status = JSON.parse(
      run('status', ...files(where), ...specArgs(where.spec), '--accept-metadata-loss', '--json')
        .stdout,
    );
    expect(status.metadata).toEqual({ ...REFUSE, writes: 'accept-loss' });
    // The line status prints runs as printed: with the flag status was given.
    expect(status.nextStep.command).toMatch(/^cursorhooks install .* --accept-metadata-loss$/);
    const install = run(
      'install',
      ...files(where),
      ...specArgs(where.spec),
      '--accept-metadata-loss',
    );
    expect(install.exitCode).toBe(0);
    expect(install.stdout).toContain(
      'ACLs and extended attributes: loss accepted (--accept-metadata-loss)',
    );
    expect(readFileSync(where.hooks, 'utf8')).toContain('agent-notify');
    expect(attrs(where.hooks)).not.toContain('user.keep');
    const again = run('remove', ...files(where), '--accept-metadata-loss', '--json');
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      status: 'done',
      metadata: { ...REFUSE, writes: 'accept-loss' },
    });
  });
});

describe.skipIf(!ready)('the built CLI with the module in a pnpm layout', () => {
  it('loads it, status says checked, and install keeps the ACL and the attribute (red: status says unavailable while the write loads the module)', () => {
    const run = cliWith(pnpmInstall);
    const where = guarded();
    const before = { acl: acl(where.hooks), attrs: attrs(where.hooks) };
    const status = run('status', ...files(where), '--json');
    expect(JSON.parse(status.stdout).metadata).toEqual({
      checked: true,
      why: null,
      writes: 'preserve',
    });
    const install = run('install', ...files(where), ...specArgs(where.spec), '--json');
    expect(install.exitCode).toBe(0);
    expect(JSON.parse(install.stdout).metadata).toEqual({
      checked: true,
      why: null,
      writes: 'preserve',
    });
    expect(acl(where.hooks)).toBe(before.acl);
    expect(attrs(where.hooks)).toBe(before.attrs);
  });
});
