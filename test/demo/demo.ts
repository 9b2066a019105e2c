// `npm run demo`: the owned entry's whole lifecycle for every built-in contract, through the
// built CLI. Exits 1 when any step's outcome differs from the script.
import { spawnCli } from './cli-process.js';
import { type Lifecycle, runLifecycles, type Step } from './lifecycle.js';
import { DEMO_SCENARIOS } from './scenarios.js';
import { unifiedDiff } from './unified-diff.js';

function printLifecycle({ contract, fixture, steps }: Lifecycle): void {
  console.log(`\n=== ${contract.shell}`);
  console.log(`=== over ${fixture.path} (${fixture.describe})`);
  for (const [index, step] of steps.entries()) printStep(step, index + 1, fixture.path);
}

function printStep(step: Step, number: number, path: string): void {
  console.log(`\n## ${number}. ${step.name}`);
  if (step.edit !== null) console.log(`edit: ${step.edit}`);
  console.log(`$ ${step.command}`);
  console.log(`exit code: ${step.exitCode}`);
  const diff = unifiedDiff(step.before, step.after, { from: `a/${path}`, to: `b/${path}` });
  console.log(diff === '' ? '(document bytes unchanged)' : diff.trimEnd());
  if (step.error !== null) {
    console.log(`refused: ${step.error.reason} (${step.error.kind})`);
    console.log(`message: ${step.error.message}`);
  }
  if (step.receipt !== undefined) console.log(`receipt: ${JSON.stringify(step.receipt, null, 2)}`);
  for (const failure of step.failures) console.log(`FAILED ${failure}`);
}

async function main(): Promise<number> {
  const lifecycles = await runLifecycles(spawnCli, DEMO_SCENARIOS);
  for (const lifecycle of lifecycles) printLifecycle(lifecycle);
  const steps = lifecycles.flatMap((lifecycle) => lifecycle.steps);
  const failed = steps.filter((step) => step.failures.length > 0).length;
  console.log(
    `\ndemo: ${lifecycles.length} lifecycles, ${steps.length} steps, ` +
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
