import { describe, expect, it } from 'vitest';
import { runLifecycles } from '../demo/lifecycle.js';
import { ALL_SCENARIOS, DEMO_SCENARIOS } from '../demo/scenarios.js';
import { cli } from './support.js';

describe('demo lifecycle', () => {
  it('goes as scripted for every contract over every fixture in-process (red: npm run demo would fail)', async () => {
    expect(ALL_SCENARIOS).toEqual(expect.arrayContaining([...DEMO_SCENARIOS]));
    const lifecycles = await runLifecycles(cli, ALL_SCENARIOS);
    expect(lifecycles).toHaveLength(6);
    for (const { contract, fixture, steps } of lifecycles) {
      expect(steps.map((step) => step.exitCode)).toEqual([0, 0, 0, 0, 1, 0, 0]);
      const failures = steps.flatMap((step) => step.failures.map((f) => `${step.name}: ${f}`));
      expect(failures, `${contract.shell} over ${fixture.path}`).toEqual([]);
    }
  });
});
