import { execFileSync } from 'node:child_process';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookSpec } from '../../src/domain/hook-spec.js';
import { FAILED_DETAILS, NOT_PERFORMED_DETAILS } from '../../src/node/status/path-check-details.js';
import {
  checkHostPaths,
  MAX_SELECTOR_BYTES,
  type PathCheckFs,
  type PathCheckOptions,
  type PathStats,
} from '../../src/node/status/path-checks.js';
import type { HostPathCheck, HostPathReport, PathRole } from '../../src/node/status/path-report.js';

const AS_ROOT = process.getuid?.() === 0;
const ROOT_ONLY = 'skipped when not root: needs chown to another uid';
const OTHER_UID = 12345;
const EARLIER = NOT_PERFORMED_DETAILS.earlierFailure;
const ALL_DETAILS: readonly string[] = [
  ...Object.values(FAILED_DETAILS),
  ...Object.values(NOT_PERFORMED_DETAILS),
];

/**
 * Every report must keep the shape's promises: a detail exactly when not passed, taken from the
 * fixed tables (so it never quotes a path), and `verified` only when all passed. A report that
 * breaks any of them fails whichever test produced it.
 */
async function check(spec: HookSpec, options?: PathCheckOptions): Promise<HostPathReport> {
  const report = await checkHostPaths(spec, options);
  for (const c of report.checks) {
    if (c.status === 'passed') {
      expect(c.detail).toBeUndefined();
    } else {
      expect(ALL_DETAILS).toContain(c.detail);
    }
  }
  expect(report.verified).toBe(report.checks.every((c) => c.status === 'passed'));
  return report;
}

function notPassed(report: HostPathReport): HostPathCheck[] {
  return report.checks.filter((c) => c.status !== 'passed');
}

function failure(
  role: PathRole,
  check: string,
  path: string,
  detail: string,
): Pick<HostPathCheck, 'role' | 'check' | 'path' | 'status' | 'detail'> {
  return { role, check, path, status: 'failed', detail };
}

/** The failure is the first non-passed check of its role; all later ones were not measured. */
function expectStopsAt(report: HostPathReport, expected: ReturnType<typeof failure>): void {
  const own = report.checks.filter((c) => c.role === expected.role);
  const at = own.findIndex((c) => c.status !== 'passed');
  expect(own[at]).toEqual(expected);
  const rest = own.slice(at + 1);
  expect(rest.length).toBeGreaterThan(0);
  for (const c of rest) expect(c).toMatchObject({ status: 'not-performed', detail: EARLIER });
  const other = report.checks.filter((c) => c.role !== expected.role);
  expect(other.every((c) => c.status === 'passed')).toBe(true);
}

let root: string;
let bin: string;
let conf: string;
let spec: HookSpec;

// realpath: where the temporary directory sits behind a symlink (macOS /var), checks would fail.
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cursorhooks-paths-')));
  bin = join(root, 'bin');
  conf = join(root, 'conf');
  await mkdir(bin, { mode: 0o755 });
  await mkdir(conf, { mode: 0o755 });
  spec = { executable: join(bin, 'agent'), selector: join(conf, 'binding.json') };
  await writeFile(spec.executable, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  await writeFile(spec.selector, '{"binding":1}\n', { mode: 0o600 });
  // The process umask may have cleared bits the fixture relies on.
  await chmod(bin, 0o755);
  await chmod(conf, 0o755);
  await chmod(spec.executable, 0o755);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('host path checks on real files', () => {
  it('passes every check of a safe layout under the temporary directory, or a sound path is rejected', async () => {
    const report = await check(spec);
    expect(notPassed(report)).toEqual([]);
    expect(report.verified).toBe(true);
    const names = (role: PathRole) =>
      report.checks.filter((c) => c.role === role).map((c) => `${c.check} ${c.path}`);
    const parents = [
      '/',
      ...root
        .slice(1)
        .split('/')
        .map((_, i, all) => `/${all.slice(0, i + 1).join('/')}`),
    ];
    const parentChecks = (last: string) =>
      [...parents, last].flatMap((p) => [
        `parent-real-directory ${p}`,
        `parent-not-writable-by-others ${p}`,
        `parent-owner ${p}`,
      ]);
    expect(names('executable')).toEqual([
      `path-absolute ${spec.executable}`,
      ...parentChecks(bin),
      `regular-file ${spec.executable}`,
      `owner ${spec.executable}`,
      `user-execute-bit ${spec.executable}`,
      `not-writable-by-others ${spec.executable}`,
    ]);
    expect(names('selector')).toEqual([
      `path-absolute ${spec.selector}`,
      ...parentChecks(conf),
      `regular-file ${spec.selector}`,
      `size-bound ${spec.selector}`,
      `owner ${spec.selector}`,
    ]);
  });

  it('fails a symlinked parent and measures nothing behind it, or a link is followed', async () => {
    const real = join(root, 'real');
    await mkdir(real, { mode: 0o755 });
    await writeFile(join(real, 'agent'), '', { mode: 0o755 });
    await chmod(join(real, 'agent'), 0o755);
    const link = join(root, 'link');
    await symlink(real, link);
    const report = await check({ ...spec, executable: join(link, 'agent') });
    expectStopsAt(
      report,
      failure('executable', 'parent-real-directory', link, FAILED_DETAILS.symlink),
    );
  });

  it.each([
    ['group-writable', 0o775],
    ['world-writable', 0o777],
    ['group-writable with only the setgid bit', 0o2775],
  ])('fails a %s parent directory, or others could swap the executable', async (_name, mode) => {
    await chmod(bin, mode);
    const report = await check(spec);
    expect(notPassed(report)).toEqual([
      failure(
        'executable',
        'parent-not-writable-by-others',
        bin,
        FAILED_DETAILS.directoryWritableByOthers,
      ),
    ]);
  });

  it.skipIf(!AS_ROOT)(
    `passes a sticky world-writable parent owned by root (the /tmp case), or /tmp-like parents are refused (${ROOT_ONLY})`,
    async () => {
      await chmod(bin, 0o1777);
      expect(notPassed(await check(spec))).toEqual([]);
    },
  );

  it.skipIf(!AS_ROOT)(
    `fails a sticky world-writable parent owned by another user, or its owner could swap the executable (${ROOT_ONLY})`,
    async () => {
      await chmod(bin, 0o1777);
      await chown(bin, OTHER_UID, OTHER_UID);
      expect(notPassed(await check(spec))).toEqual([
        failure(
          'executable',
          'parent-not-writable-by-others',
          bin,
          FAILED_DETAILS.directoryWritableByOthers,
        ),
        failure('executable', 'parent-owner', bin, FAILED_DETAILS.directoryNotOwned),
      ]);
    },
  );

  it.skipIf(!AS_ROOT)(
    `fails a parent owned by another user, or that user could swap the selector (${ROOT_ONLY})`,
    async () => {
      await chown(conf, OTHER_UID, OTHER_UID);
      expect(notPassed(await check(spec))).toEqual([
        failure('selector', 'parent-owner', conf, FAILED_DETAILS.directoryNotOwned),
      ]);
    },
  );

  it.skipIf(!AS_ROOT)(
    `fails an executable owned by another user, or a foreign executable counts as verified (${ROOT_ONLY})`,
    async () => {
      await chown(spec.executable, OTHER_UID, OTHER_UID);
      expect(notPassed(await check(spec))).toEqual([
        failure('executable', 'owner', spec.executable, FAILED_DETAILS.executableNotOwned),
      ]);
    },
  );

  it.skipIf(!AS_ROOT)(
    `accepts a root-owned executable for another user but not a root-owned selector, or the owner rules are swapped (${ROOT_ONLY})`,
    async () => {
      const report = await check(spec, { uid: OTHER_UID });
      // Every fixture path is root-owned, so only the selector's stricter rule can fail.
      expect(notPassed(report)).toEqual([
        failure('selector', 'owner', spec.selector, FAILED_DETAILS.selectorNotOwned),
      ]);
    },
  );

  it.each([
    ['no execute bit at all', 0o644],
    ['execute bits for group and others only', 0o655],
  ])('fails an executable with %s, or the wrong bit is read', async (_name, mode) => {
    await chmod(spec.executable, mode);
    expect(notPassed(await check(spec))).toEqual([
      failure('executable', 'user-execute-bit', spec.executable, FAILED_DETAILS.noUserExecuteBit),
    ]);
  });

  it.each([
    ['group-writable', 0o775],
    ['world-writable', 0o757],
  ])('fails a %s executable, or others could rewrite it', async (_name, mode) => {
    await chmod(spec.executable, mode);
    expect(notPassed(await check(spec))).toEqual([
      failure(
        'executable',
        'not-writable-by-others',
        spec.executable,
        FAILED_DETAILS.fileWritableByOthers,
      ),
    ]);
  });

  it('fails an executable that is a symlink to a sound file, or the link is followed', async () => {
    const link = join(bin, 'agent-link');
    await symlink(spec.executable, link);
    const report = await check({ ...spec, executable: link });
    expectStopsAt(report, failure('executable', 'regular-file', link, FAILED_DETAILS.symlink));
  });

  it('fails an executable that is a directory, or a directory passes as a file', async () => {
    const report = await check({ ...spec, executable: bin });
    expectStopsAt(report, failure('executable', 'regular-file', bin, FAILED_DETAILS.directory));
  });

  it('fails a selector one byte over MAX_SELECTOR_BYTES and passes one at the bound, or the bound is off', async () => {
    await truncate(spec.selector, MAX_SELECTOR_BYTES);
    expect(notPassed(await check(spec))).toEqual([]);
    await truncate(spec.selector, MAX_SELECTOR_BYTES + 1);
    expect(notPassed(await check(spec))).toEqual([
      failure('selector', 'size-bound', spec.selector, FAILED_DETAILS.tooLarge),
    ]);
  });

  // A check that opened the FIFO would block here until the test times out.
  it('fails a selector that is a FIFO without opening it, or a FIFO passes or hangs the check', async () => {
    const fifo = join(conf, 'binding.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    const report = await check({ ...spec, selector: fifo });
    expectStopsAt(report, failure('selector', 'regular-file', fifo, FAILED_DETAILS.specialFile));
  });

  it.skipIf(!AS_ROOT)(
    `fails a selector owned by another user, or a foreign binding counts as verified (${ROOT_ONLY})`,
    async () => {
      await chown(spec.selector, OTHER_UID, OTHER_UID);
      expect(notPassed(await check(spec))).toEqual([
        failure('selector', 'owner', spec.selector, FAILED_DETAILS.selectorNotOwned),
      ]);
    },
  );

  it.each([
    ['a relative path', 'bin/agent'],
    ['a dot path', './agent'],
    ['an empty path', ''],
  ])(
    'fails %s without looking it up, or it is resolved against the working directory',
    async (_name, executable) => {
      const looked: string[] = [];
      const fs: PathCheckFs = {
        lstat: (path) => {
          looked.push(path);
          return lstat(path);
        },
      };
      const report = await check({ ...spec, executable }, { fs });
      expectStopsAt(
        report,
        failure('executable', 'path-absolute', executable, FAILED_DETAILS.notAbsolute),
      );
      expect(looked.every((path) => path.startsWith('/'))).toBe(true);
    },
  );

  it('fails a missing selector as missing, or absence throws or passes', async () => {
    const missing = join(conf, 'absent.json');
    const report = await check({ ...spec, selector: missing });
    expectStopsAt(report, failure('selector', 'regular-file', missing, FAILED_DETAILS.missing));
  });

  it('fails a missing parent directory as missing and stops there, or absence throws or passes', async () => {
    const gone = join(root, 'gone');
    const report = await check({ ...spec, selector: join(gone, 'deeper', 'binding.json') });
    expectStopsAt(
      report,
      failure('selector', 'parent-real-directory', gone, FAILED_DETAILS.missing),
    );
  });

  it('fails a parent that is a regular file, or a file passes as a directory', async () => {
    const report = await check({ ...spec, selector: join(spec.executable, 'binding.json') });
    expectStopsAt(
      report,
      failure('selector', 'parent-real-directory', spec.executable, FAILED_DETAILS.notDirectory),
    );
  });

  it('fails a path Node refuses to look up (a NUL byte) as unexaminable, or the checker throws', async () => {
    const odd = join(conf, 'bind\0ing.json');
    const report = await check({ ...spec, selector: odd });
    expectStopsAt(report, failure('selector', 'regular-file', odd, FAILED_DETAILS.unexaminable));
  });

  it('reports owner checks as not performed when there is no numeric uid, or ownership is claimed unmeasured', async () => {
    const report = await check(spec, { uid: null });
    expect(report.verified).toBe(false);
    const unmeasured = notPassed(report);
    expect(unmeasured.length).toBeGreaterThan(0);
    for (const c of unmeasured) {
      expect(c).toMatchObject({ status: 'not-performed', detail: NOT_PERFORMED_DETAILS.noUserId });
      expect(['owner', 'parent-owner']).toContain(c.check);
    }
    expect(unmeasured.filter((c) => c.check === 'owner').map((c) => c.role)).toEqual([
      'executable',
      'selector',
    ]);
  });

  it('leaves the files untouched, or a check writes or changes modes', async () => {
    const before = await Promise.all([lstat(spec.executable), lstat(spec.selector)]);
    await check(spec);
    const after = await Promise.all([lstat(spec.executable), lstat(spec.selector)]);
    expect(after.map((s) => [s.mode, s.size, s.mtimeMs])).toEqual(
      before.map((s) => [s.mode, s.size, s.mtimeMs]),
    );
  });
});

describe('host path checks through the file-system seam', () => {
  function erring(code: unknown): PathCheckFs {
    return {
      lstat: async (path) => {
        if (path === spec.selector)
          throw code === undefined ? 'not an error' : Object.assign(new Error('x'), { code });
        return lstat(path);
      },
    };
  }

  it.each([
    ['ENOENT', FAILED_DETAILS.missing],
    ['EACCES', FAILED_DETAILS.accessDenied],
    ['EPERM', FAILED_DETAILS.accessDenied],
    ['ENOTDIR', FAILED_DETAILS.componentNotDirectory],
    ['ELOOP', FAILED_DETAILS.unexaminable],
    ['constructor', FAILED_DETAILS.unexaminable],
    [undefined, FAILED_DETAILS.unexaminable],
  ])(
    'turns an lstat rejection %s into a failed check with its own detail, or it throws or is mislabelled',
    async (code, detail) => {
      const report = await check(spec, { fs: erring(code) });
      expectStopsAt(report, failure('selector', 'regular-file', spec.selector, detail));
    },
  );
});

describe('host path checks on Windows (platform injected)', () => {
  type Kind = 'file' | 'dir' | 'link';
  // Mode and uid are deliberately unsafe: the Windows branch must not read them as if POSIX.
  function stats(kind: Kind, size = 10): PathStats {
    return {
      mode: 0o777,
      uid: 4242,
      size,
      isFile: () => kind === 'file',
      isDirectory: () => kind === 'dir',
      isSymbolicLink: () => kind === 'link',
    };
  }
  function fakeFs(entries: Record<string, PathStats>): PathCheckFs {
    return {
      lstat: async (path) => {
        const found = entries[path];
        if (found === undefined) throw Object.assign(new Error('absent'), { code: 'ENOENT' });
        return found;
      },
    };
  }
  const winSpec: HookSpec = {
    executable: 'C:\\Tools\\agent.exe',
    selector: 'C:\\Data\\binding.json',
  };
  const tree = {
    'C:\\': stats('dir'),
    'C:\\Tools': stats('dir'),
    'C:\\Data': stats('dir'),
    'C:\\Tools\\agent.exe': stats('file'),
    'C:\\Data\\binding.json': stats('file'),
  };
  const options = (entries: Record<string, PathStats>): PathCheckOptions => ({
    platform: 'win32',
    uid: null,
    fs: fakeFs(entries),
  });

  it('reports the ACL-bound checks as not performed and never verifies, or Windows claims what Node cannot measure', async () => {
    const report = await check(winSpec, options(tree));
    expect(report.verified).toBe(false);
    const byStatus = (status: string) =>
      report.checks.filter((c) => c.status === status).map((c) => `${c.role} ${c.check} ${c.path}`);
    expect(byStatus('failed')).toEqual([]);
    expect(byStatus('not-performed')).toEqual([
      'executable parent-not-writable-by-others C:\\',
      'executable parent-owner C:\\',
      'executable parent-not-writable-by-others C:\\Tools',
      'executable parent-owner C:\\Tools',
      'executable owner C:\\Tools\\agent.exe',
      'executable user-execute-bit C:\\Tools\\agent.exe',
      'executable not-writable-by-others C:\\Tools\\agent.exe',
      'selector parent-not-writable-by-others C:\\',
      'selector parent-owner C:\\',
      'selector parent-not-writable-by-others C:\\Data',
      'selector parent-owner C:\\Data',
      'selector owner C:\\Data\\binding.json',
    ]);
    for (const c of notPassed(report)) expect(c.detail).toBe(NOT_PERFORMED_DETAILS.windowsAcl);
    expect(byStatus('passed')).toEqual([
      'executable path-absolute C:\\Tools\\agent.exe',
      'executable parent-real-directory C:\\',
      'executable parent-real-directory C:\\Tools',
      'executable regular-file C:\\Tools\\agent.exe',
      'selector path-absolute C:\\Data\\binding.json',
      'selector parent-real-directory C:\\',
      'selector parent-real-directory C:\\Data',
      'selector regular-file C:\\Data\\binding.json',
      'selector size-bound C:\\Data\\binding.json',
    ]);
  });

  it('still fails what lstat measures on Windows (a linked parent, an oversized selector), or those go unchecked', async () => {
    const report = await check(
      winSpec,
      options({
        ...tree,
        'C:\\Tools': stats('link'),
        'C:\\Data\\binding.json': stats('file', MAX_SELECTOR_BYTES + 1),
      }),
    );
    const failed = report.checks.filter((c) => c.status === 'failed');
    expect(failed).toEqual([
      failure('executable', 'parent-real-directory', 'C:\\Tools', FAILED_DETAILS.symlink),
      failure('selector', 'size-bound', 'C:\\Data\\binding.json', FAILED_DETAILS.tooLarge),
    ]);
  });

  it.each([
    ['a bare name', 'agent.exe'],
    ['a drive-relative path', 'C:agent.exe'],
    ['a path rooted on the current drive', '\\Tools\\agent.exe'],
  ])(
    'fails %s as not absolute, or it depends on the working directory or drive',
    async (_name, executable) => {
      const report = await check({ ...winSpec, executable }, options(tree));
      expect(report.checks.find((c) => c.role === 'executable')).toEqual(
        failure('executable', 'path-absolute', executable, FAILED_DETAILS.notAbsolute),
      );
    },
  );

  it('accepts a UNC path as absolute and walks its parents from the share, or UNC hosts are refused', async () => {
    const executable = '\\\\server\\share\\agent.exe';
    const report = await check(
      { ...winSpec, executable },
      options({ ...tree, '\\\\server\\share\\': stats('dir'), [executable]: stats('file') }),
    );
    const own = report.checks.filter(
      (c) => c.role === 'executable' && c.status !== 'not-performed',
    );
    expect(own.map((c) => `${c.check} ${c.path} ${c.status}`)).toEqual([
      `path-absolute ${executable} passed`,
      'parent-real-directory \\\\server\\share\\ passed',
      `regular-file ${executable} passed`,
    ]);
  });
});

// The host kit builds on the planner, never the other way round, and these checks need only the
// spec's type: a value import here would pull planner code into every host path check.
it('imports nothing from the planner but types, or the host checks grow a planner dependency', async () => {
  for (const file of ['path-checks.ts', 'path-check-details.ts', 'path-report.ts']) {
    const source = await readFile(
      new URL(`../../src/node/status/${file}`, import.meta.url),
      'utf8',
    );
    for (const [statement] of source.matchAll(/^import [^;]*;/gm)) {
      const from = /from '([^']+)'/.exec(statement)?.[1] ?? '';
      // Within the kit (this room or a sibling), never further up, unless only types.
      const inKit = from.startsWith('./') || (from.startsWith('../') && !from.startsWith('../../'));
      const allowed = from.startsWith('node:') || inKit || statement.startsWith('import type');
      expect(allowed, statement).toBe(true);
    }
  }
});
