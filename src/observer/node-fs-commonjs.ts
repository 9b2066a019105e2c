// node:fs for the observer's CommonJS bundle (scripts/build-observer.mjs puts it in place of
// node-fs.ts): a plain require. createRequire, which the ES build needs, loads node:module and
// with it the ES loader, which a CommonJS observer otherwise never starts.
export const fs: typeof import('node:fs') = require('node:fs');
