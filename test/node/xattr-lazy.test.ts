// The optional native module costs nothing at import: loaded on the first status or write that
// needs the metadata decision, and that decision is a real load, not a look at folders.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const nativeLoaded = (): boolean =>
  Object.keys(require.cache).some((key) => key.includes('@napi-rs'));

describe('loading @napi-rs/xattr', () => {
  it('waits for the metadata decision, and the decision loads it (red: every host pays the native load at import, or status decides without loading)', async () => {
    await import('../../src/node/index.js');
    expect(nativeLoaded()).toBe(false);
    const { metadataCheck } = await import('../../src/node/write/metadata.js');
    expect(nativeLoaded()).toBe(false);
    expect(await metadataCheck()).toEqual({ performed: true, writes: 'preserve' });
    expect(nativeLoaded()).toBe(true);
  });
});
