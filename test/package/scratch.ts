// Builds what the package test installs from, offline: the package packed from a clean copy of
// the sources, its runtime dependencies packed from this project's node_modules, and scratch
// projects that install them with npm --offline and an empty temporary cache. Nothing here
// reaches the network or the real home directory.
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a fresh clone holds that the build and the package need. */
const SOURCES = [
  'package.json',
  'package-lock.json',
  'README.md',
  'LICENSE',
  'tsconfig.json',
  'tsconfig.build.json',
  'src',
  'contracts',
  'schemas',
  'docs',
  'scripts',
];

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

/**
 * The environment for `npm` or `npx`, isolated from the user's configuration and cache, and from
 * the `npm test` run around it (whose npm_* variables would otherwise leak into the child). With
 * a registry, every registry request goes to it: nothing can reach the network.
 */
function npmEnv(scratch: string, registry?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') && value !== undefined) env[key] = value;
  }
  writeFileSync(join(scratch, 'npmrc'), '');
  Object.assign(env, {
    npm_config_cache: join(scratch, 'cache'),
    npm_config_userconfig: join(scratch, 'npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  if (registry !== undefined) {
    // The lockfile's integrity hashes name the public registry's tarballs, not these repacks.
    Object.assign(env, { npm_config_registry: registry, npm_config_package_lock: 'false' });
  }
  return env;
}

export function npm(
  program: 'npm' | 'npx',
  args: readonly string[],
  cwd: string,
  scratch: string,
): string {
  return execFileSync(program, args, {
    cwd,
    env: npmEnv(scratch),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** As `npm`, without blocking: the test process serves the local registry meanwhile. */
export async function npmAsync(
  args: readonly string[],
  cwd: string,
  scratch: string,
  registry?: string,
): Promise<string> {
  const env = npmEnv(scratch, registry);
  const { stdout } = await promisify(execFile)('npm', args, { cwd, env, encoding: 'utf8' });
  return stdout;
}

/** What a fresh clone holds, without dist and without node_modules. */
export function freshCopy(target: string): string {
  for (const entry of SOURCES) cpSync(join(ROOT, entry), join(target, entry), { recursive: true });
  return target;
}

/**
 * A fresh copy as after `npm ci`: its node_modules is a directory of links, one per package of
 * this project, so whatever npm writes there (it links a folder dependency and manages that
 * folder's dependencies) stays in the temporary directory.
 */
export function copySources(target: string): string {
  freshCopy(target);
  mkdirSync(join(target, 'node_modules'), { recursive: true });
  const modules = join(ROOT, 'node_modules');
  for (const entry of readdirSync(modules)) {
    symlinkSync(join(modules, entry), join(target, 'node_modules', entry));
  }
  return target;
}

/** A bare git repository at `bare` whose one commit is a fresh copy; returns its git+file URL. */
export function gitRepository(work: string, bare: string): string {
  freshCopy(work);
  const git = (args: readonly string[], cwd: string) =>
    execFileSync('git', args, { cwd, stdio: 'ignore' });
  git(['init', '--quiet', '--initial-branch=main'], work);
  git(['add', '-A'], work);
  git(['-c', 'user.name=test', '-c', 'user.email=test@invalid', 'commit', '-qm', 'fresh'], work);
  git(['clone', '--quiet', '--bare', work, bare], work);
  return `git+${pathToFileURL(bare).href}`;
}

/** Every runtime dependency, transitively, as installed here: name to package directory. */
export function runtimeDependencies(): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (manifestPath: string): void => {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    for (const name of names) {
      if (found.has(name)) continue;
      // Node's own lookup order; `name/package.json` itself may not be exported.
      const directory = (createRequire(manifestPath).resolve.paths(name) ?? [])
        .map((modules) => join(modules, name))
        .find((candidate) => existsSync(join(candidate, 'package.json')));
      if (directory === undefined) throw new Error(`dependency ${name} is not installed`);
      found.set(name, directory);
      visit(join(directory, 'package.json'));
    }
  };
  visit(join(ROOT, 'package.json'));
  return found;
}

/** Packs each directory into `destination`; returns the tarball file names in order. */
export function pack(
  directories: readonly string[],
  cwd: string,
  scratch: string,
  destination: string,
): string[] {
  mkdirSync(destination, { recursive: true });
  const output = npm(
    'npm',
    ['pack', ...directories, '--pack-destination', destination, '--offline', '--json'],
    cwd,
    scratch,
  );
  return (JSON.parse(output) as { filename: string }[]).map((entry) => entry.filename);
}

/**
 * A scratch project whose dependencies are `cursorhooks` (any npm spec) and every runtime
 * dependency as a local tarball. npm keeps a root dependency that satisfies a nested range, so
 * the package's own registry ranges resolve to those tarballs. Without a registry the install
 * runs --offline.
 */
export async function scratchProject(
  directory: string,
  cursorhooks: string,
  dependencyTarballs: ReadonlyMap<string, string>,
  scratch: string,
  registry?: string,
): Promise<string> {
  mkdirSync(directory, { recursive: true });
  const dependencies: Record<string, string> = { cursorhooks };
  for (const [name, tarball] of dependencyTarballs) dependencies[name] = `file:${tarball}`;
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, dependencies }, null, 2)}\n`,
  );
  const offline = registry === undefined ? ['--offline'] : [];
  await npmAsync(['install', ...offline, '--no-audit', '--no-fund'], directory, scratch, registry);
  return directory;
}
