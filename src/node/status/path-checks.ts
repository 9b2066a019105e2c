// The host path checks of SPEC §11: what must have been measured before a host passes
// `executableVerified: true`. Only lstat is called, so no link is followed and no FIFO is opened.
import { posix, win32 } from 'node:path';
import type { HookSpec } from '../../domain/hook-spec.js';
import { nodeFs } from '../write/fs-seam.js';
import { isAbsolute } from './absolute-path.js';
import { FAILED_DETAILS, NOT_PERFORMED_DETAILS } from './path-check-details.js';
import type {
  CheckStatus,
  HostPathCheck,
  HostPathChecker,
  HostPathReport,
  PathRole,
} from './path-report.js';

/**
 * The selector size bound, 1 MiB. A selector is a small binding file the executable reads on
 * every stop event within the hook's 5 s timeout; real ones are a few kilobytes. The bound
 * leaves more than a hundredfold margin over that and still refuses a path naming something
 * else (a log, an archive, a disk image) or a file that grows without limit.
 */
export const MAX_SELECTOR_BYTES = 1024 * 1024;

/**
 * The stable check names. Each role starts with `path-absolute`, then the three `parent-*` checks
 * for every parent directory from the root down, then its own checks on the path itself.
 */
export type PathCheckName =
  | 'path-absolute'
  | 'parent-real-directory'
  | 'parent-not-writable-by-others'
  | 'parent-owner'
  | 'regular-file'
  | 'owner'
  | 'user-execute-bit'
  | 'not-writable-by-others'
  | 'size-bound';

/** What the checks read from an lstat result; Node's `fs.Stats` satisfies it. */
export interface PathStats {
  readonly mode: number;
  readonly uid: number;
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file-system seam: lstat alone, which neither follows a link nor opens the file. */
export interface PathCheckFs {
  lstat(path: string): Promise<PathStats>;
}

export interface PathCheckOptions {
  /**
   * Defaults to `process.platform`. On `win32` Node reads no owner SID, no ACL and no execute
   * permission, so every owner and writability check and `user-execute-bit` report
   * `not-performed` and the report is never verified. Still measured there: a drive or UNC
   * absolute path, real (non-link) parent directories, a regular file (lstat reports symbolic
   * links and junctions as links; other reparse points look like ordinary entries) and the
   * selector's size.
   */
  readonly platform?: NodeJS.Platform;
  /** The current user's numeric id; `null` when there is none. Defaults to `process.getuid()`. */
  readonly uid?: number | null;
  readonly fs?: PathCheckFs;
}

interface Context {
  /** The Windows branch: see `PathCheckOptions.platform` for what it cannot measure. */
  readonly windows: boolean;
  readonly uid: number | null;
  readonly fs: PathCheckFs;
}

type Verdict =
  | { readonly status: 'passed' }
  | { readonly status: Exclude<CheckStatus, 'passed'>; readonly detail: string };
type Rule = (stats: PathStats, context: Context) => Verdict;
type NamedRule = readonly [PathCheckName, Rule];
/**
 * `deciding` says what the path is (or carries lstat's failure); if it fails, `others` mean
 * nothing and are reported as not measured.
 */
interface PathRules {
  readonly deciding: NamedRule;
  readonly others: readonly NamedRule[];
}

const PASSED: Verdict = { status: 'passed' };
const WINDOWS_ACL = notPerformed(NOT_PERFORMED_DETAILS.windowsAcl);
const NO_USER_ID = notPerformed(NOT_PERFORMED_DETAILS.noUserId);
const EARLIER_FAILURE = notPerformed(NOT_PERFORMED_DETAILS.earlierFailure);

const ROOT_UID = 0;
const GROUP_OR_OTHER_WRITE = 0o022;
const STICKY = 0o1000;
const USER_EXECUTE = 0o100;

const STAT_ERROR_DETAILS = new Map<unknown, string>([
  ['ENOENT', FAILED_DETAILS.missing],
  ['EACCES', FAILED_DETAILS.accessDenied],
  ['EPERM', FAILED_DETAILS.accessDenied],
  ['ENOTDIR', FAILED_DETAILS.componentNotDirectory],
]);

const PARENT_RULES: PathRules = {
  deciding: ['parent-real-directory', realDirectory],
  others: [
    ['parent-not-writable-by-others', directoryNotWritableByOthers],
    // Beyond the letter of SPEC section 11: whoever owns a parent can swap the entry inside it.
    ['parent-owner', ownedBy(true, FAILED_DETAILS.directoryNotOwned)],
  ],
};
const EXECUTABLE_RULES: PathRules = {
  deciding: ['regular-file', regularFile],
  others: [
    ['owner', ownedBy(true, FAILED_DETAILS.executableNotOwned)],
    ['user-execute-bit', userExecuteBit],
    ['not-writable-by-others', fileNotWritableByOthers],
  ],
};
const SELECTOR_RULES: PathRules = {
  deciding: ['regular-file', regularFile],
  others: [
    ['size-bound', withinSizeBound],
    ['owner', ownedBy(false, FAILED_DETAILS.selectorNotOwned)],
  ],
};

/**
 * Runs every check for both spec paths and reports each one. A failed lstat (missing file,
 * EACCES, ENOTDIR...) is a failed check, never a throw; `verified` is true only when every
 * check passed.
 */
export const checkHostPaths = (async (
  spec: HookSpec,
  options: PathCheckOptions = {},
): Promise<HostPathReport> => {
  const context: Context = {
    windows: (options.platform ?? process.platform) === 'win32',
    uid: options.uid !== undefined ? options.uid : (process.getuid?.() ?? null),
    fs: options.fs ?? nodeFs,
  };
  const roles = await Promise.all([
    checkRole('executable', spec.executable, EXECUTABLE_RULES, context),
    checkRole('selector', spec.selector, SELECTOR_RULES, context),
  ]);
  const checks = Object.freeze(roles.flat());
  return Object.freeze({ verified: checks.every((c) => c.status === 'passed'), checks });
}) satisfies HostPathChecker;

/** One role's checks in order; once a deciding check fails, the rest are not measured. */
class RoleChecks {
  readonly list: HostPathCheck[] = [];
  blocked = false;

  constructor(private readonly role: PathRole) {}

  add(check: PathCheckName, path: string, verdict: Verdict): void {
    this.list.push(Object.freeze({ role: this.role, check, path, ...verdict }));
  }
}

async function checkRole(
  role: PathRole,
  path: string,
  ownRules: PathRules,
  context: Context,
): Promise<HostPathCheck[]> {
  const checks = new RoleChecks(role);
  // A relative path is never looked up: it would be resolved against this process's directory.
  const absolute = isAbsolute(path, context.windows);
  checks.add('path-absolute', path, absolute ? PASSED : failed(FAILED_DETAILS.notAbsolute));
  checks.blocked = !absolute;
  // Root first: each lstat resolves its prefix through parents already proven real directories.
  for (const parent of parentsOf(path, context.windows)) {
    await checkPath(checks, parent, PARENT_RULES, context);
  }
  await checkPath(checks, path, ownRules, context);
  return checks.list;
}

async function checkPath(
  checks: RoleChecks,
  path: string,
  rules: PathRules,
  context: Context,
): Promise<void> {
  const [decidingName, decidingRule] = rules.deciding;
  let stats: PathStats | undefined;
  let verdict = EARLIER_FAILURE;
  if (!checks.blocked) {
    try {
      stats = await context.fs.lstat(path);
    } catch (error) {
      verdict = failed(statErrorDetail(error));
    }
    if (stats !== undefined) verdict = decidingRule(stats, context);
  }
  checks.add(decidingName, path, verdict);
  checks.blocked = verdict.status !== 'passed';
  for (const [name, rule] of rules.others) {
    checks.add(
      name,
      path,
      stats === undefined || checks.blocked ? EARLIER_FAILURE : rule(stats, context),
    );
  }
}

/** The parent directories, root first (`/`, `C:\`, `\\server\share\`). */
function parentsOf(path: string, windows: boolean): string[] {
  const { dirname } = windows ? win32 : posix;
  const parents: string[] = [];
  for (let parent = dirname(path); !parents.includes(parent); parent = dirname(parent)) {
    parents.unshift(parent);
  }
  return parents;
}

function statErrorDetail(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return STAT_ERROR_DETAILS.get(code) ?? FAILED_DETAILS.unexaminable;
}

function realDirectory(stats: PathStats): Verdict {
  if (stats.isSymbolicLink()) return failed(FAILED_DETAILS.symlink);
  return stats.isDirectory() ? PASSED : failed(FAILED_DETAILS.notDirectory);
}

function regularFile(stats: PathStats): Verdict {
  if (stats.isFile()) return PASSED;
  if (stats.isSymbolicLink()) return failed(FAILED_DETAILS.symlink);
  return failed(stats.isDirectory() ? FAILED_DETAILS.directory : FAILED_DETAILS.specialFile);
}

function directoryNotWritableByOthers(stats: PathStats, context: Context): Verdict {
  if (context.windows) return WINDOWS_ACL;
  if ((stats.mode & GROUP_OR_OTHER_WRITE) === 0) return PASSED;
  // The /tmp case: with the sticky bit only an entry's owner (or the directory's) may rename or
  // remove it, which protects our files only if the directory's owner is root.
  return (stats.mode & STICKY) !== 0 && stats.uid === ROOT_UID
    ? PASSED
    : failed(FAILED_DETAILS.directoryWritableByOthers);
}

function fileNotWritableByOthers(stats: PathStats, context: Context): Verdict {
  if (context.windows) return WINDOWS_ACL;
  return (stats.mode & GROUP_OR_OTHER_WRITE) === 0
    ? PASSED
    : failed(FAILED_DETAILS.fileWritableByOthers);
}

// u+x, the bit chmod calls the user's: the executable's owner is the current user or root.
function userExecuteBit(stats: PathStats, context: Context): Verdict {
  if (context.windows) return WINDOWS_ACL;
  return (stats.mode & USER_EXECUTE) !== 0 ? PASSED : failed(FAILED_DETAILS.noUserExecuteBit);
}

function withinSizeBound(stats: PathStats): Verdict {
  return stats.size <= MAX_SELECTOR_BYTES ? PASSED : failed(FAILED_DETAILS.tooLarge);
}

function ownedBy(rootAllowed: boolean, detail: string): Rule {
  return (stats, context) => {
    if (context.windows) return WINDOWS_ACL;
    if (context.uid === null) return NO_USER_ID;
    const owned = stats.uid === context.uid || (rootAllowed && stats.uid === ROOT_UID);
    return owned ? PASSED : failed(detail);
  };
}

function failed(detail: string): Verdict {
  return { status: 'failed', detail };
}

function notPerformed(detail: string): Verdict {
  return { status: 'not-performed', detail };
}
