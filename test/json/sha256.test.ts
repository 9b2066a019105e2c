// The SHA-256s of the planner, node:crypto's (the library) and the portable one (the CLI bundle,
// compressing with WebAssembly, or in JavaScript where Node has none), against the published
// vectors and each other: a wrong digest would make receipts unverifiable, or let the CLI and
// the library disagree about the same document.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { moduleBytes } from '../../scripts/sha256-wasm.js';
import * as library from '../../src/json/sha256.js';
import * as portable from '../../src/json/sha256-portable.js';
import { MODULE_BASE64 } from '../../src/json/sha256-wasm.js';

/** The portable hash as a Node without WebAssembly (`--jitless`) runs it, on a fresh module. */
async function portableWithoutWebAssembly(): Promise<typeof portable> {
  vi.stubGlobal('WebAssembly', undefined);
  try {
    vi.resetModules();
    const fresh = await import('../../src/json/sha256-portable.js');
    // The first hash fixes the block function: WebAssembly is absent, so JavaScript's.
    fresh.sha256Hex(new Uint8Array(0));
    return fresh;
  } finally {
    vi.unstubAllGlobals();
  }
}
const javascriptOnly = await portableWithoutWebAssembly();

const native = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const ascii = (text: string) => new TextEncoder().encode(text);

describe.each([
  ['node:crypto', library],
  ['portable (WebAssembly)', portable],
  ['portable (JavaScript)', javascriptOnly],
])('the %s Sha256', (_, { Sha256, sha256Hex }) => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])(
    'gives the FIPS 180-4 digest of %j (red: a constant, a rotation or the padding is wrong)',
    (text, hex) => {
      expect(new Sha256().update(ascii(text)).hex()).toBe(hex);
      expect(sha256Hex(ascii(text))).toBe(hex);
    },
  );

  it('gives the published digest of a million a (red: the bit length is wrong past a few blocks)', () => {
    const hash = new Sha256();
    const chunk = new Uint8Array(1000).fill(0x61);
    for (let i = 0; i < 1000; i++) hash.update(chunk);
    expect(hash.hex()).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('equals node:crypto on more blocks than fit in one update of the block function (red: input past the first 64 KiB page is dropped or hashed twice)', () => {
    const bytes = Uint8Array.from({ length: 200_003 }, (_, i) => (i * 7919) >>> 3);
    expect(sha256Hex(bytes)).toBe(native(bytes));
    expect(new Sha256().update(bytes.subarray(0, 5)).update(bytes.subarray(5)).hex()).toBe(
      native(bytes),
    );
  });

  it('equals node:crypto at every length around the padding boundaries (red: a message of 55, 56, 63 or 64 bytes mod 64 pads wrongly)', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      expect(sha256Hex(bytes), `length ${length}`).toBe(native(bytes));
    }
  });

  it('equals node:crypto however the input is split into updates, with other hashes in between (red: bytes held between updates are lost, doubled or shared)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.array(fc.nat({ max: 600 }), { maxLength: 8 }),
        (bytes, cuts) => {
          const hash = new Sha256();
          let from = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const to = Math.max(from, Math.min(cut, bytes.length));
            hash.update(bytes.subarray(from, to));
            sha256Hex(bytes.subarray(0, cut));
            from = to;
          }
          hash.update(bytes.subarray(from));
          expect(hash.hex()).toBe(native(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });
});

it('holds the WebAssembly module its assembly writes out (red: the bytes that run are not the reviewed op-by-op source; print them with npx tsx scripts/sha256-wasm.ts)', () => {
  expect(MODULE_BASE64).toBe(Buffer.from(moduleBytes()).toString('base64'));
});
