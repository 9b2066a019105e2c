// The stop observers docs/observer.md shows (docs/examples/), each installed as the owned entry's
// executable and put through `simulate-stop --conformance`: the matrix a host runs on its own
// observer passes the ones the project tells hosts to copy. The Node one imports
// cursorhooks/observer by name, from the package itself (npm run build first).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SimulateResultJSON } from '../../src/cli/simulate/simulate-result.js';
import { files, home, install } from '../cli/file-support.js';
import { expectSchema } from '../cli/schema-check.js';
import { cli } from '../cli/support.js';
import { requireBuiltObserver } from '../observer/built.js';

const PYTHON = spawnSync('python3', ['--version']).status === 0;
const example = (name: string) =>
  fileURLToPath(new URL(`../../docs/examples/${name}`, import.meta.url));

describe('the documented stop observers under simulate-stop --conformance', () => {
  it.each([
    ['Node', 'stop-observer.mjs'],
    ['Python', 'stop-observer.py'],
    ['POSIX shell', 'stop-observer.sh'],
  ])(
    'passes every case for the %s example (red: the docs teach an observer that Cursor would see fail)',
    async (_, name) => {
      if (name.endsWith('.mjs')) requireBuiltObserver();
      if (name.endsWith('.py') && !PYTHON) return;
      const where = home();
      const observed = { ...where, spec: { ...where.spec, executable: example(name) } };
      const installed = await install(observed);
      expect(installed.exitCode, installed.stderr).toBe(0);
      const outcome = await cli(['simulate-stop', ...files(observed), '--conformance', '--json']);
      expect(outcome.exitCode, outcome.stdout).toBe(0);
      const result = JSON.parse(outcome.stdout) as SimulateResultJSON;
      expectSchema('simulate-stop-result', result);
      expect(result.mode).toBe('conformance');
      expect(result.failing).toEqual([]);
      expect(result.cases?.every((one) => one.passed)).toBe(true);
    },
    120_000,
  );
});
