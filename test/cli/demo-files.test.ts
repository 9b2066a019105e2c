import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDemoHome } from '../demo/file-home.js';
import { runFileLifecycle } from '../demo/file-lifecycle.js';
import { cli } from './support.js';

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('demo part 1: the file-level lifecycle', () => {
  it('goes as scripted in-process, byte for byte (red: npm run demo would fail)', async () => {
    const home = makeDemoHome();
    homes.push(home.dir);
    const steps = await runFileLifecycle(cli, home);
    expect(steps.map((step) => `${step.exitCode} ${step.outcome}`)).toEqual([
      '0 not-installed',
      '0 dry-run',
      '0 done',
      '0 no-op',
      '0 remainder-drift',
      '0 done',
      '1 refused',
      '1 refused',
      '0 done',
      '0 done',
      '0 no-op',
    ]);
    expect(steps.flatMap((step) => step.failures.map((f) => `${step.name}: ${f}`))).toEqual([]);
    expect(steps[1]?.diff).toMatch(/\n\+\t\t\t\t"failClosed": false\n/);
  });

  it('records a failure when an outcome differs from the script (red: the demo cannot fail)', async () => {
    const home = makeDemoHome();
    homes.push(home.dir);
    // A CLI that reports every command as refused: each step must then be marked failed.
    const steps = await runFileLifecycle(
      async () => ({ exitCode: 1, stdout: '{"status": "refused"}', stderr: '' }),
      home,
    );
    expect(steps.every((step) => step.failures.length > 0)).toBe(true);
  });
});
