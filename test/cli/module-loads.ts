// What one call of the built CLI evaluates, read from V8's coverage of that call (NODE_V8_COVERAGE):
// esbuild wraps the top-level code of each module a dynamic import reaches in a function named
// for the module (`"src/cli/run.ts"() {…}`), which runs iff the module is evaluated; the modules
// it leaves unwrapped (the entry's own, headed by a `// src/…` comment) run on every call.
// The laziness tests and the start-up bench both read it; it counts, it never times.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILT_CLI, CLI_BUNDLE } from '../demo/cli-process.js';

export interface ModuleLoads {
  /** The bundle's size: one file, all of it read (and compiled, where its code cache is refused). */
  readonly bytes: number;
  /** The source modules whose code ran, as esbuild names them (`src/cli/run.ts`). */
  readonly evaluated: readonly string[];
  /** Node's own modules it loaded that a bare `node -e 0` does not (`node:crypto`). */
  readonly builtins: readonly string[];
}

interface FunctionCoverage {
  readonly functionName: string;
  readonly ranges: readonly { readonly count: number }[];
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly FunctionCoverage[];
}

/** The scripts one node process ran with `args`, and their functions' call counts. */
function coverage(args: readonly string[], stdin: string): ScriptCoverage[] {
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-loads-'));
  try {
    const child = spawnSync(process.execPath, args, {
      input: stdin,
      encoding: 'utf8',
      env: { ...process.env, NODE_V8_COVERAGE: dir },
    });
    if (child.status !== 0) {
      throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
    }
    return readdirSync(dir).flatMap(
      (name) =>
        (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { result: ScriptCoverage[] }).result,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const MODULE = /^(src|contracts|node_modules)\/\S+\.[cm]?[jt]s$/;
let bare: ReadonlySet<string> | undefined;
const nodeModules = (scripts: readonly ScriptCoverage[]) =>
  scripts.map((script) => script.url).filter((url) => url.startsWith('node:'));

/** Runs the built CLI once with `args` and `stdin`; a failed call throws. */
export function moduleLoads(args: readonly string[], stdin = ''): ModuleLoads {
  bare ??= new Set(nodeModules(coverage(['-e', '0'], '')));
  const scripts = coverage([BUILT_CLI, ...args], stdin);
  const bundle = scripts.find((script) => script.url === pathToFileURL(CLI_BUNDLE).href);
  const wrapped = (bundle?.functions ?? []).filter((fn) => MODULE.test(fn.functionName));
  const names = new Set(wrapped.map((fn) => fn.functionName));
  const text = readFileSync(CLI_BUNDLE, 'utf8');
  const eager = [...text.matchAll(/^\/\/ (\S+)$/gm)]
    .map((match) => match[1] ?? '')
    .filter((name) => MODULE.test(name) && !names.has(name));
  return {
    bytes: Buffer.byteLength(text),
    evaluated: [
      ...new Set(eager),
      ...wrapped.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0).map((fn) => fn.functionName),
    ],
    builtins: nodeModules(scripts).filter((url) => !bare?.has(url)),
  };
}
