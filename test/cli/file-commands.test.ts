import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { strays } from '../node/support.js';
import {
  FOREIGN_CRLF,
  fileCli,
  files,
  fingerprint,
  home,
  install,
  readHooks,
  result,
  specArgs,
  writeHooks,
} from './file-support.js';
import { cli, HOME_STUB_WORKS } from './support.js';

/** The owned entry as the planner lays it out in the tab-indented file. */
const OWNED =
  /\t\t\t\{ "type": "command", "command": "[^\r\n]+", "timeout": 5, "failClosed": false \}/;

describe('cursorhooks install, update, remove, repair on a real hooks.json', () => {
  it('runs the whole lifecycle, keeping every foreign byte and the CRLF layout (red: a command loses or mangles a byte, or the ledger is not kept)', async () => {
    const where = home();
    writeHooks(where);

    const installed = result(await install(where), 0);
    expect(installed).toMatchObject({
      status: 'done',
      changed: true,
      generation: 1,
      settled: null,
    });
    expect(installed.hostPaths).toMatchObject({ verified: true, vouched: false });
    expect(installed.receipt?.spec).toEqual(where.spec);
    const afterInstall = readHooks(where);
    expect(afterInstall.replace(OWNED, '').replace('10 },\r\n\r\n', '10 }\r\n')).toBe(FOREIGN_CRLF);
    expect(afterInstall).not.toMatch(/[^\r]\n/);
    // The diff is readable: LF lines, the addition shown, the CRLF layout named in the header.
    expect(installed.diff).toContain('CRLF line ends, shown as LF');
    expect(installed.diff).not.toContain('\r');
    expect(installed.diff).toMatch(/\n\+\t\t\t\{ "type": "command"/);

    const again = result(await install(where), 0);
    expect(again).toMatchObject({ status: 'no-op', changed: false, generation: 1, diff: '' });

    const updated = result(await fileCli('update', where, ...specArgs(where.otherSpec)), 0);
    expect(updated).toMatchObject({ status: 'done', changed: true, generation: 2 });
    expect(updated.receipt?.spec).toEqual(where.otherSpec);
    expect(readHooks(where)).toContain('stop-v2.json');

    const removed = result(await fileCli('remove', where), 0);
    expect(removed).toMatchObject({
      status: 'done',
      receipt: null,
      generation: 3,
      hostPaths: null,
    });
    expect(readHooks(where)).toBe(FOREIGN_CRLF);
    const ledger = JSON.parse(readFileSync(where.ledger, 'utf8'));
    expect(JSON.stringify(ledger)).toContain('stop-v2.json');

    expect(result(await fileCli('remove', where), 0)).toMatchObject({ status: 'no-op' });
    expect(strays(where.dir, '.cursor', 'agent bin', 'ledger.json')).toEqual([]);
    expect(strays(join(where.dir, '.cursor'), 'hooks.json')).toEqual([]);
  });

  it('refuses an operation after a hand edit of the entry, then repairs a hand deletion (red: a hand edit is overwritten, or repair does not put the entry back)', async () => {
    const where = home();
    writeHooks(where);
    result(await install(where), 0);
    const installed = readHooks(where);

    const edited = installed.replace('"timeout": 5', '"timeout": 50');
    writeFileSync(where.hooks, edited);
    const refused = result(await fileCli('repair', where), 1);
    expect(refused.status).toBe('refused');
    expect(refused.error).toMatchObject({ kind: 'conflict', reason: 'owner-modified' });
    expect(refused.changed).toBe(false);
    expect(readHooks(where)).toBe(edited);

    const deleted = installed.replace(OWNED, '').replace('10 },\r\n\r\n', '10 }\r\n');
    expect(deleted).toBe(FOREIGN_CRLF);
    writeFileSync(where.hooks, deleted);
    const reinstall = result(await install(where), 1);
    expect(reinstall.error).toMatchObject({ kind: 'absence-unproven', reason: 'owner-absent' });
    const repaired = result(await fileCli('repair', where), 0);
    expect(repaired).toMatchObject({ status: 'done', changed: true, generation: 2 });
    expect(repaired.hostPaths?.checks[0]?.path).toBe(where.spec.executable);
    expect(readHooks(where)).toBe(installed);
  });

  it('writes nothing on --dry-run: hook file bytes and mtime unchanged, no ledger created (red: a dry run writes)', async () => {
    const where = home();
    writeHooks(where);
    const before = fingerprint(where.hooks);
    const planned = result(await install(where, '--dry-run'), 0);
    expect(planned).toMatchObject({
      status: 'dry-run',
      dryRun: true,
      changed: true,
      generation: 0,
    });
    expect(planned.diff).toMatch(/\n\+\t\t\t\{ "type": "command"/);
    expect(fingerprint(where.hooks)).toEqual(before);
    expect(existsSync(where.ledger)).toBe(false);
    expect(strays(join(where.dir, '.cursor'), 'hooks.json')).toEqual([]);

    result(await install(where), 0);
    const installed = fingerprint(where.hooks);
    const ledger = fingerprint(where.ledger);
    const removal = result(await fileCli('remove', where, '--dry-run'), 0);
    expect(removal).toMatchObject({ status: 'dry-run', changed: true, receipt: null });
    expect(removal.diff).toMatch(/\n-\t\t\t\{ "type": "command"/);
    expect(fingerprint(where.hooks)).toEqual(installed);
    expect(fingerprint(where.ledger)).toEqual(ledger);
  });

  it('creates an absent file and diffs it from /dev/null (red: an absent file is refused or mislabelled)', async () => {
    const where = home();
    const created = result(await install(where), 0);
    expect(created.diff).toMatch(/^--- \/dev\/null\n\+\+\+ .*hooks\.json\n@@ -0,0 \+1,\d+ @@/);
    expect(JSON.parse(readHooks(where)).hooks.stop).toHaveLength(1);
  });

  it('writes through a symlinked hooks file, which stays a symlink (red: a dotfile link is replaced by a regular file)', async () => {
    const where = home();
    const dotfiles = join(where.dir, 'dotfiles');
    mkdirSync(dotfiles);
    const target = join(dotfiles, 'cursor-hooks.json');
    writeFileSync(target, FOREIGN_CRLF);
    symlinkSync(target, where.hooks);
    const installed = result(await install(where), 0);
    expect(installed.realPath).toBe(target);
    expect(lstatSync(where.hooks).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(OWNED);
  });

  it.skipIf(!HOME_STUB_WORKS)(
    'uses ~/.cursor/hooks.json of HOME when --hooks-file is not given (red: the default path is wrong)',
    async () => {
      const where = home();
      writeHooks(where);
      vi.stubEnv('HOME', where.dir);
      try {
        const outcome = await cli([
          'install',
          '--ledger',
          where.ledger,
          ...specArgs(where.spec),
          '--json',
        ]);
        expect(result(outcome, 0).hooksFile).toBe(where.hooks);
        expect(readHooks(where)).toMatch(OWNED);
      } finally {
        vi.unstubAllEnvs();
      }
    },
  );

  it('prints a readable summary and the diff without --json (red: text output loses the outcome, the ledger or the diff)', async () => {
    const where = home();
    writeHooks(where);
    const outcome = await cli(['install', ...files(where), ...specArgs(where.spec)]);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toBe('');
    const lines = outcome.stdout.split('\n');
    expect(lines[0]).toBe('install: the hook file was written and the ledger committed');
    expect(outcome.stdout).toContain(`ledger: ${where.ledger}, generation 1\n`);
    expect(outcome.stdout).toMatch(/\nhost path checks: all \d+ passed\n/);
    expect(outcome.stdout).toContain(`\n--- ${where.hooks}\tCRLF line ends, shown as LF\n`);
    expect(outcome.stdout).not.toContain('\r');
  });

  it('names each failed host path check by role and name, and refuses (red: an unchecked executable is installed, or the failure is not explained)', async () => {
    const where = home();
    writeHooks(where);
    const spec = { ...where.spec, selector: join(where.dir, 'missing.json') };
    const refused = result(await fileCli('install', where, ...specArgs(spec)), 1);
    expect(refused.error?.reason).toBe('executable-unverified');
    expect(refused.hostPaths?.verified).toBe(false);
    expect(refused.hostPaths?.checks).toContainEqual(
      expect.objectContaining({ role: 'selector', check: 'regular-file', status: 'failed' }),
    );
    expect(readHooks(where)).toBe(FOREIGN_CRLF);
    const text = await cli(['install', ...files(where), ...specArgs(spec)]);
    expect(text.stdout).toMatch(/\n {2}failed {8}selector regular-file: .*missing\.json\n/);
    expect(text.stderr).toMatch(/^cursorhooks: .*\[executable-unverified\]\n$/);
  });
});
