// node:fs through require, not import: an ESM import of a built-in module evaluates all of its
// exports, and fs's lazy ones (promises, the stream classes) load some twenty modules, which
// every stop would pay for.
import { createRequire } from 'node:module';

export const fs: typeof import('node:fs') = createRequire(import.meta.url)('node:fs');
