import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // README examples import the package by name; run them against the sources.
  resolve: { alias: { cursorhooks: fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // Property and shell-recorder tests do real work; the default 5 s is too tight on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
