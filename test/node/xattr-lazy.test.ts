// The optional native module costs nothing until a write needs it: not at import, not for status.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const nativeLoaded = (): boolean =>
  Object.keys(require.cache).some((key) => key.includes('@napi-rs'));

describe('loading @napi-rs/xattr', () => {
  it('waits for the first write that needs it, or every host and every status pays the native load', async () => {
    await import('../../src/node/index.js');
    expect(nativeLoaded()).toBe(false);
    const { metadataCheck } = await import('../../src/node/metadata.js');
    // Installed here (a dev dependency with its linux-x64 binary): status says so from files alone.
    expect(await metadataCheck()).toEqual({ performed: true });
    expect(nativeLoaded()).toBe(false);
    const { loadXattrs } = await import('../../src/node/xattr-native.js');
    expect(await loadXattrs()).toBeDefined();
    expect(nativeLoaded()).toBe(true);
  });
});
