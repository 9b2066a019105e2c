// The WebAssembly module of src/json/sha256-wasm.ts, SHA-256's block function (FIPS 180-4),
// written out op by op. `npx tsx scripts/sha256-wasm.ts` prints the bytes as that file holds
// them; a test fails when the two differ.
import { fileURLToPath } from 'node:url';
import { BLOCK, LAYOUT } from '../src/json/sha256-wasm.js';

const { k: K_AT, state: STATE_AT, schedule: W_AT, input: INPUT_AT } = LAYOUT;

// The function's locals: its parameter (the blocks left), the eight working variables, then
// the round's first temporary, the byte offset into the schedule, the input pointer, a scratch.
const BLOCKS = 0;
const [A, B, C, D, E, F, G, H] = [1, 2, 3, 4, 5, 6, 7, 8];
const T1 = 9;
const I = 10;
const P = 11;
const X = 12;
const DECLARED_LOCALS = 12;

const I32 = 0x7f;

/** LEB128, the module format's integers: unsigned, or signed for `i32.const`. */
function leb(value: number, signed: boolean): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value = signed ? value >> 7 : value >>> 7;
    const done = signed
      ? (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)
      : value === 0;
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** The block function's instructions, as a tiny assembler writes them. */
function compressBody(): number[] {
  const code: number[] = [];
  const get = (local: number) => code.push(0x20, local);
  const set = (local: number) => code.push(0x21, local);
  const tee = (local: number) => code.push(0x22, local);
  const constant = (value: number) => code.push(0x41, ...leb(value, true));
  // Memory operands: the alignment (as a power of two), then a constant offset.
  const load = (offset: number) => code.push(0x28, 2, ...leb(offset, false));
  const loadByte = (offset: number) => code.push(0x2d, 0, ...leb(offset, false));
  const store = (offset: number) => code.push(0x36, 2, ...leb(offset, false));
  const [add, sub, and, or, xor, shl, shrU, rotr] = [
    0x6a, 0x6b, 0x71, 0x72, 0x73, 0x74, 0x76, 0x78,
  ];
  const op = (opcode: number) => code.push(opcode);
  const loop = (body: () => void) => {
    code.push(0x03, 0x40);
    body();
    code.push(0x0b);
  };
  /** Repeats the enclosing loop while I, stepped by 4, has not reached `end`. */
  const nextWordUntil = (end: number) => {
    get(I);
    constant(4);
    op(add);
    tee(I);
    constant(end);
    code.push(0x47, 0x0d, 0); // i32.ne, br_if to the loop
  };
  /** x ROTR r1 ^ x ROTR r2 ^ (x ROTR r3, or x >>> r3 for the schedule's small sigmas). */
  const sigma = (x: number, r1: number, r2: number, r3: number, lastIsShift: boolean) => {
    get(x);
    constant(r1);
    op(rotr);
    get(x);
    constant(r2);
    op(rotr);
    op(xor);
    get(x);
    constant(r3);
    op(lastIsShift ? shrU : rotr);
    op(xor);
  };

  constant(INPUT_AT);
  set(P);
  loop(() => {
    // W[0..16): the block's words, big-endian.
    constant(0);
    set(I);
    loop(() => {
      get(I);
      get(P);
      get(I);
      op(add);
      tee(X);
      loadByte(0);
      constant(24);
      op(shl);
      for (const [byte, shift] of [
        [1, 16],
        [2, 8],
      ] as const) {
        get(X);
        loadByte(byte);
        constant(shift);
        op(shl);
        op(or);
      }
      get(X);
      loadByte(3);
      op(or);
      store(W_AT);
      nextWordUntil(16 * 4);
    });
    // W[16..64): W[t-16] + σ0(W[t-15]) + W[t-7] + σ1(W[t-2]).
    const earlier = (back: number) => {
      get(I);
      load(W_AT - back * 4);
    };
    const smallSigma = (back: number, r1: number, r2: number, shift: number) => {
      earlier(back);
      set(X);
      sigma(X, r1, r2, shift, true);
    };
    loop(() => {
      get(I);
      earlier(16);
      smallSigma(15, 7, 18, 3);
      op(add);
      earlier(7);
      op(add);
      smallSigma(2, 17, 19, 10);
      op(add);
      store(W_AT);
      nextWordUntil(64 * 4);
    });
    for (let j = 0; j < 8; j++) {
      constant(0);
      load(STATE_AT + 4 * j);
      set(A + j);
    }
    constant(0);
    set(I);
    loop(() => {
      // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]
      get(H);
      sigma(E, 6, 11, 25, false);
      op(add);
      get(E);
      get(F);
      op(and);
      get(E);
      constant(-1);
      op(xor);
      get(G);
      op(and);
      op(xor);
      op(add);
      get(I);
      load(K_AT);
      op(add);
      get(I);
      load(W_AT);
      op(add);
      set(T1);
      // The new a = T1 + Σ0(a) + Maj(a, b, c), made before b and c move.
      get(T1);
      sigma(A, 2, 13, 22, false);
      op(add);
      get(A);
      get(B);
      op(and);
      get(A);
      get(C);
      op(and);
      op(xor);
      get(B);
      get(C);
      op(and);
      op(xor);
      op(add);
      set(X);
      get(G);
      set(H);
      get(F);
      set(G);
      get(E);
      set(F);
      get(D);
      get(T1);
      op(add);
      set(E);
      get(C);
      set(D);
      get(B);
      set(C);
      get(A);
      set(B);
      get(X);
      set(A);
      nextWordUntil(64 * 4);
    });
    for (let j = 0; j < 8; j++) {
      constant(0);
      constant(0);
      load(STATE_AT + 4 * j);
      get(A + j);
      op(add);
      store(STATE_AT + 4 * j);
    }
    get(P);
    constant(BLOCK);
    op(add);
    set(P);
    get(BLOCKS);
    constant(1);
    op(sub);
    tee(BLOCKS);
    code.push(0x0d, 0); // br_if: blocks remain
  });
  code.push(0x0b);
  return code;
}

const name = (text: string) => [text.length, ...Array.from(text, (char) => char.charCodeAt(0))];
const section = (id: number, content: number[]) => [id, ...leb(content.length, false), ...content];

/** The module: one function `compress(blocks)` and the memory it works in. */
export function moduleBytes(): Uint8Array {
  const body = [1, DECLARED_LOCALS, I32, ...compressBody()];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, I32, 0]), // one type: (i32) -> ()
    ...section(3, [1, 0]), // one function, of that type
    ...section(5, [1, 0x00, 1]), // one memory of one page, no maximum
    ...section(7, [2, ...name('compress'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...leb(body.length, false), ...body]),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${Buffer.from(moduleBytes()).toString('base64')}\n`);
}
