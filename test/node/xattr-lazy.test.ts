// The optional native module costs nothing until a write (or status) needs it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const nativeLoaded = (): boolean =>
  Object.keys(require.cache).some((key) => key.includes('@napi-rs'));

describe('loading @napi-rs/xattr', () => {
  it('waits for the first call that needs it, or every host pays the native load at start-up', async () => {
    await import('../../src/node/index.js');
    expect(nativeLoaded()).toBe(false);
    const { metadataCheck } = await import('../../src/node/metadata.js');
    await metadataCheck();
    expect(nativeLoaded()).toBe(true);
  });
});
