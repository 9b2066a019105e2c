import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// For mutation runs of the JSON layer and the domain: the suites that spend their time in
// child processes (real shells, crash sweeps, npm pack, the built CLI) are left out. They run
// the planner too, so with them every mutant on a hot line would cost minutes; they add no
// kill that the in-process suites miss there. The shell contracts need the recorder: mutate
// contracts/ and src/shell/ with the full configuration.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/shell/recorder.test.ts',
        'test/shell/pwsh-*.test.ts',
        'test/node/crash.test.ts',
        'test/node/concurrency.test.ts',
        // Their children now count under Stryker (test/node/child/stryker.ts): minutes a mutant.
        'test/node/soak.test.ts',
        'test/node/ways-out.property.test.ts',
        'test/node/in-place-race.test.ts',
        'test/package/**',
        'test/cli/built-cli.test.ts',
        '**/node_modules/**',
      ],
    },
  }),
);
