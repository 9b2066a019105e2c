// SHA-256's block function (FIPS 180-4) as a small WebAssembly module, for the CLI bundle's
// SHA-256 (sha256-portable.ts). In a short-lived call, JavaScript hashes a hooks.json in the
// interpreter, and V8 may then optimise the block function on a worker thread that the process
// waits for at exit, milliseconds more; WebAssembly runs compiled from the first block and
// leaves nothing behind. scripts/sha256-wasm.ts writes the module out op by op and prints the
// bytes below (a test holds the two equal): assembling them here would cost every call more
// than compiling them.

/** Compresses `blocks` whole 64-byte blocks of `data`, from `offset`, into `state`. */
export type CompressBlocks = (
  state: Int32Array,
  data: Uint8Array,
  offset: number,
  blocks: number,
) => void;

// Only what this file uses: the project's type libraries do not describe WebAssembly.
interface WasmExports {
  readonly compress: (blocks: number) => void;
  readonly memory: { readonly buffer: ArrayBuffer };
}
declare const WebAssembly:
  | {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object) => { readonly exports: WasmExports };
    }
  | undefined;

/** The module's one 64 KiB page: round constants, state, message schedule, then the input. */
export const LAYOUT = { k: 0, state: 256, schedule: 512, input: 1024, page: 65536 } as const;
/** SHA-256 works on 64-byte blocks. */
export const BLOCK = 64;
const MAX_BLOCKS = (LAYOUT.page - LAYOUT.input) / BLOCK;

/** The module: one function `compress(blocks)` and the memory it works in. */
export const MODULE_BASE64 =
  'AGFzbQEAAAABBQFgAX8AAwIBAAUDAQABBxUCCGNvbXByZXNzAAAGbWVtb3J5AgAK/wMB/AMBDH9BgAghCwNAQQAhCgNAIAogCyAKaiIMLQAAQRh0IAwtAAFBEHRyIAwtAAJBCHRyIAwtAANyNgKABCAKQQRqIgpBwABHDQALA0AgCiAKKALAAyAKKALEAyEMIAxBB3ggDEESeHMgDEEDdnNqIAooAuQDaiAKKAL4AyEMIAxBEXggDEETeHMgDEEKdnNqNgKABCAKQQRqIgpBgAJHDQALQQAoAoACIQFBACgChAIhAkEAKAKIAiEDQQAoAowCIQRBACgCkAIhBUEAKAKUAiEGQQAoApgCIQdBACgCnAIhCEEAIQoDQCAIIAVBBnggBUELeHMgBUEZeHNqIAUgBnEgBUF/cyAHcXNqIAooAgBqIAooAoAEaiEJIAkgAUECeCABQQ14cyABQRZ4c2ogASACcSABIANxcyACIANxc2ohDCAHIQggBiEHIAUhBiAEIAlqIQUgAyEEIAIhAyABIQIgDCEBIApBBGoiCkGAAkcNAAtBAEEAKAKAAiABajYCgAJBAEEAKAKEAiACajYChAJBAEEAKAKIAiADajYCiAJBAEEAKAKMAiAEajYCjAJBAEEAKAKQAiAFajYCkAJBAEEAKAKUAiAGajYClAJBAEEAKAKYAiAHajYCmAJBAEEAKAKcAiAIajYCnAIgC0HAAGohCyAAQQFrIgANAAsL';

/**
 * The block function compiled to WebAssembly, with round constants `k`; undefined where this
 * Node has no WebAssembly (`--jitless`). A module that fails to compile is a bug and throws.
 */
export function wasmCompressor(k: Int32Array): CompressBlocks | undefined {
  if (typeof WebAssembly !== 'object') return undefined;
  const { exports } = new WebAssembly.Instance(
    new WebAssembly.Module(Buffer.from(MODULE_BASE64, 'base64')),
  );
  const memory = new Uint8Array(exports.memory.buffer);
  // Explicitly little-endian, the module's byte order, whatever the machine's.
  const view = new DataView(exports.memory.buffer);
  for (const [j, word] of k.entries()) view.setInt32(LAYOUT.k + 4 * j, word, true);
  return (state, data, offset, blocks) => {
    for (let j = 0; j < 8; j++) view.setInt32(LAYOUT.state + 4 * j, state[j] as number, true);
    for (let at = offset, left = blocks; left > 0; ) {
      const count = Math.min(left, MAX_BLOCKS);
      memory.set(data.subarray(at, at + count * BLOCK), LAYOUT.input);
      exports.compress(count);
      at += count * BLOCK;
      left -= count;
    }
    for (let j = 0; j < 8; j++) state[j] = view.getInt32(LAYOUT.state + 4 * j, true);
  };
}
