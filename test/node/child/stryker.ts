// StrykerJS and child processes. Under Stryker a child bundle holds the sandbox's instrumented
// sources; these pass the test process's active mutant on and bring the child's coverage back,
// so a mutant only a child reaches runs against the test that spawned it (docs/mutation.md).
// Outside Stryker they change nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a child writes its coverage on exit; set only under Stryker. */
const COVERAGE_FILE = '__CURSORHOOKS_CHILD_COVERAGE__';

type Counts = Record<string, number>;
interface Coverage {
  static: Counts;
  perTest: Record<string, Counts>;
}
/** The part of Stryker's global namespace (`__stryker__`) read and written here. */
interface Namespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: Coverage;
}

/**
 * Banner code for a child bundle (after the one that defines `require`): on exit, the child
 * writes the coverage its instrumented code counted. A SIGKILLed child writes none; its full
 * run, which the crash suites make first, reaches every line the killed ones reach.
 */
export const COVERAGE_BANNER = `if (process.env.${COVERAGE_FILE}) process.on('exit', () => require('node:fs').writeFileSync(process.env.${COVERAGE_FILE}, JSON.stringify(globalThis.__stryker__?.mutantCoverage ?? {})));`;

/** The environment for one child, and what to call once it has exited. */
export function strykerChild(): { env: NodeJS.ProcessEnv; exited: () => void } {
  const ns = (globalThis as { __stryker__?: Namespace }).__stryker__;
  if (ns === undefined) return { env: process.env, exited: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-stryker-'));
  const file = join(dir, 'coverage.json');
  const env: NodeJS.ProcessEnv = { ...process.env, [COVERAGE_FILE]: file };
  // The instrumented code takes the mutant from this variable when its global has none.
  if (ns.activeMutant !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = ns.activeMutant;
  const exited = () => {
    if (existsSync(file)) merge(ns, JSON.parse(readFileSync(file, 'utf8')) as Partial<Coverage>);
    rmSync(dir, { recursive: true, force: true });
  };
  return { env, exited };
}

/** Counts the child's hits as the current test's (the child knows no test), or as static. */
function merge(ns: Namespace, child: Partial<Coverage>): void {
  ns.mutantCoverage ??= { static: {}, perTest: {} };
  const { perTest } = ns.mutantCoverage;
  const test = ns.currentTestId;
  if (test !== undefined) perTest[test] ??= {};
  const into = test === undefined ? ns.mutantCoverage.static : (perTest[test] as Counts);
  for (const counts of [child.static ?? {}, ...Object.values(child.perTest ?? {})]) {
    for (const [mutant, hits] of Object.entries(counts)) into[mutant] = (into[mutant] ?? 0) + hits;
  }
}
