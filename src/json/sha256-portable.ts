// SHA-256 (FIPS 180-4) in plain TypeScript, with the interface of sha256.ts. The CLI bundle uses
// it in place of node:crypto (scripts/build-cli.mjs swaps it in): loading node:crypto, which
// brings the stream modules with it, costs a call a few milliseconds. The blocks are compressed
// by WebAssembly (sha256-wasm.ts says why), or by the function below where Node has none. In a
// long-lived process node:crypto is faster, so the library keeps it.
import { BLOCK, type CompressBlocks, wasmCompressor } from './sha256-wasm.js';

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

// The message schedule, shared: compression never runs twice at once, and one array for all
// hashes spares each a typed array too large for V8's heap.
const WORDS = new Int32Array(64);

// Chosen at the first hash, not at load: a call that hashes nothing compiles no module.
let compressBlocks: CompressBlocks | undefined;
const compressor = (): CompressBlocks => {
  compressBlocks ??= wasmCompressor(K) ?? compressInJs;
  return compressBlocks;
};

function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

/** An incremental SHA-256: `update` any number of times, then `hex` once. */
export class Sha256 {
  private readonly state = Int32Array.from(INITIAL);
  // At most 64 bytes: V8 keeps so small a typed array on its heap, where it costs almost nothing.
  private readonly pending = new Uint8Array(BLOCK);
  private pendingLength = 0;
  private total = 0;

  update(data: Uint8Array): this {
    let offset = 0;
    this.total += data.length;
    if (this.pendingLength > 0) {
      const taken = Math.min(BLOCK - this.pendingLength, data.length);
      this.pending.set(data.subarray(0, taken), this.pendingLength);
      this.pendingLength += taken;
      offset = taken;
      if (this.pendingLength < BLOCK) return this;
      compressor()(this.state, this.pending, 0, 1);
      this.pendingLength = 0;
    }
    const blocks = Math.floor((data.length - offset) / BLOCK);
    if (blocks > 0) compressor()(this.state, data, offset, blocks);
    offset += blocks * BLOCK;
    this.pending.set(data.subarray(offset), 0);
    this.pendingLength = data.length - offset;
    return this;
  }

  /** The digest as 64 lowercase hex digits; the hash takes no more input after it. */
  hex(): string {
    // Padding: a 1 bit, zeros up to 56 bytes mod 64, then the length in bits as 64 bits.
    const bits = this.total * 8;
    const last = this.pending.fill(0, this.pendingLength);
    last[this.pendingLength] = 0x80;
    if (this.pendingLength >= 56) {
      compressor()(this.state, last, 0, 1);
      last.fill(0);
    }
    writeUint32(last, 56, Math.floor(bits / 0x1_0000_0000));
    writeUint32(last, 60, bits >>> 0);
    compressor()(this.state, last, 0, 1);
    let out = '';
    for (const word of this.state) out += (word >>> 0).toString(16).padStart(8, '0');
    return out;
  }
}

/** The block function in JavaScript, for a Node without WebAssembly. */
function compressInJs(s: Int32Array, data: Uint8Array, start: number, blocks: number): void {
  for (let offset = start; offset < start + blocks * BLOCK; offset += BLOCK) {
    compressOne(s, data, offset);
  }
}

function compressOne(s: Int32Array, data: Uint8Array, offset: number): void {
  const w = WORDS;
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] =
      ((data[at] as number) << 24) |
      ((data[at + 1] as number) << 16) |
      ((data[at + 2] as number) << 8) |
      (data[at + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const w15 = w[i - 15] as number;
    const w2 = w[i - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let a = s[0] as number;
  let b = s[1] as number;
  let c = s[2] as number;
  let d = s[3] as number;
  let e = s[4] as number;
  let f = s[5] as number;
  let g = s[6] as number;
  let h = s[7] as number;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  s[0] = ((s[0] as number) + a) | 0;
  s[1] = ((s[1] as number) + b) | 0;
  s[2] = ((s[2] as number) + c) | 0;
  s[3] = ((s[3] as number) + d) | 0;
  s[4] = ((s[4] as number) + e) | 0;
  s[5] = ((s[5] as number) + f) | 0;
  s[6] = ((s[6] as number) + g) | 0;
  s[7] = ((s[7] as number) + h) | 0;
}

/** The digest of `data` in one call. */
export const sha256Hex = (data: Uint8Array): string => new Sha256().update(data).hex();
