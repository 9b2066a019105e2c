// `npm run demo`, through the built CLI. Part 1: the file-level commands on a real hooks.json in
// a temporary home. Part 2: the pure `plan` protocol, the owned entry's lifecycle for every
// built-in contract. Exits 1 when any step's outcome differs from the script.
import { rmSync } from 'node:fs';
import { unifiedDiff } from '../../src/cli/file/diff.js';
import { spawnCli } from './cli-process.js';
import { makeDemoHome } from './file-home.js';
import { type FileStep, runFileLifecycle } from './file-lifecycle.js';
import { type Lifecycle, runLifecycles, type Step } from './lifecycle.js';
import { DEMO_SCENARIOS } from './scenarios.js';

/** Part 1's output reads as if in a real home: the temporary directory shows as `~`. */
function tilde(home: string, text: string): string {
  return text.replaceAll(home, '~');
}

function printFileStep(step: FileStep, number: number, home: string, ledger: string | null): void {
  const show = (text: string) => console.log(tilde(home, text).trimEnd());
  console.log(`\n## ${number}. ${step.name}`);
  if (step.edit !== null) console.log(`edit: ${step.edit}`);
  console.log(`$ cursorhooks ${step.args.map((arg) => shellWord(home, arg)).join(' ')}`);
  console.log(`exit code: ${step.exitCode}, outcome: ${step.outcome}`);
  if (step.error !== null) console.log(`refused: ${step.error}`);
  if (step.diff !== '') show(step.diff);
  if (step.ledger === ledger)
    console.log(`ledger: ${ledger === null ? '(none yet)' : 'unchanged'}`);
  else show(`ledger:\n${step.ledger}`);
  show(`$ cursorhooks status --hooks-file ~/.cursor/hooks.json --ledger ...\n${step.status}`);
  for (const failure of step.failures) console.log(`FAILED ${failure}`);
}

/** The argument as a POSIX shell word, with the temporary home as an unquoted `~/`. */
function shellWord(home: string, arg: string): string {
  if (arg.startsWith(`${home}/`)) return `~/${shellWord('', arg.slice(home.length + 1))}`;
  return /^[\w./:=@-]+$/.test(arg) ? arg : `'${arg}'`;
}

async function printLifecycle({ contract, fixture, steps }: Lifecycle): Promise<void> {
  console.log(`\n=== ${contract.shell}`);
  console.log(`=== over ${fixture.path} (${fixture.describe})`);
  for (const [index, step] of steps.entries()) await printStep(step, index + 1, fixture.path);
}

async function printStep(step: Step, number: number, path: string): Promise<void> {
  console.log(`\n## ${number}. ${step.name}`);
  if (step.edit !== null) console.log(`edit: ${step.edit}`);
  console.log(`$ ${step.command}`);
  console.log(`exit code: ${step.exitCode}`);
  const diff = await unifiedDiff(path, true, step.before, step.after);
  console.log(diff === '' ? '(document bytes unchanged)' : diff.trimEnd());
  if (step.error !== null) {
    console.log(`refused: ${step.error.reason} (${step.error.kind})`);
    console.log(`message: ${step.error.message}`);
  }
  if (step.receipt !== undefined) console.log(`receipt: ${JSON.stringify(step.receipt, null, 2)}`);
  for (const failure of step.failures) console.log(`FAILED ${failure}`);
}

async function fileLevelPart(): Promise<{ steps: number; failed: number }> {
  const home = makeDemoHome();
  try {
    console.log('# Part 1: the file-level commands on a real hooks.json');
    console.log(`# a temporary home (shown as ~): ${home.dir}`);
    console.log('# ~/.cursor/hooks.json is a symlink to ~/dotfiles/cursor/hooks.json (CRLF, tabs,');
    console.log('# foreign hooks); the ledger lives at ~/.config/agent/cursorhooks-ledger.json');
    const steps = await runFileLifecycle(spawnCli, home);
    for (const [index, step] of steps.entries()) {
      printFileStep(step, index + 1, home.dir, steps[index - 1]?.ledger ?? null);
    }
    return { steps: steps.length, failed: steps.filter((s) => s.failures.length > 0).length };
  } finally {
    rmSync(home.dir, { recursive: true, force: true });
  }
}

async function planPart(): Promise<{ steps: number; failed: number }> {
  console.log(
    '\n# Part 2: the pure plan protocol (bytes in, bytes and a receipt out), per contract',
  );
  const lifecycles = await runLifecycles(spawnCli, DEMO_SCENARIOS);
  for (const lifecycle of lifecycles) await printLifecycle(lifecycle);
  const steps = lifecycles.flatMap((lifecycle) => lifecycle.steps);
  return { steps: steps.length, failed: steps.filter((s) => s.failures.length > 0).length };
}

async function main(): Promise<number> {
  const files = await fileLevelPart();
  const plans = await planPart();
  const failed = files.failed + plans.failed;
  console.log(
    `\ndemo: ${files.steps} file-level steps and ${plans.steps} plan steps, ` +
      (failed === 0 ? 'every outcome as scripted' : `${failed} steps NOT as scripted`),
  );
  return failed === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(`demo: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
