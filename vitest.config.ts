import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // README examples import the package by name; run them against the sources.
  // The subpath first: an alias also matches the paths below its name.
  resolve: {
    alias: [
      { find: 'cursorhooks/node', replacement: source('./src/node/index.ts') },
      { find: 'cursorhooks/observer', replacement: source('./src/observer/index.ts') },
      { find: 'cursorhooks', replacement: source('./src/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Property and shell-recorder tests do real work; the default 5 s is too tight on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
    // Both cores: most files wait on child processes, and one worker (the default here, cores
    // minus one) left CI at eleven minutes.
    maxWorkers: 2,
  },
});
