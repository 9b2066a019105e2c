import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property and shell-recorder tests do real work; the default 5 s is too tight on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
