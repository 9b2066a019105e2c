import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  LOWER_U,
  OPEN_ARRAY,
  OPEN_OBJECT,
  SLASH,
} from './bytes.js';
import { hexUnit } from './escape.js';
import { type JsonNode, Tag, type Tape } from './tree.js';

const HEX_DIGITS = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));

/**
 * The byte after the backslash for code units with a two-character canonical escape, 0 for
 * the other units below 0x60 (every unit above has none).
 */
const SHORT_ESCAPE = new Uint8Array(0x60);
for (const [unit, marker] of [
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x08, 0x62],
  [0x0c, 0x66],
  [0x0a, 0x6e],
  [0x0d, 0x72],
  [0x09, 0x74],
] as const) {
  SHORT_ESCAPE[unit] = marker;
}

/** Receives a full buffer of canonical bytes; the buffer is written over once it returns. */
export type CanonicalSink = (full: Uint8Array) => void;

/**
 * The canonical form (SPEC §5) as UTF-8: no whitespace, members sorted by key code units,
 * arrays in order, numbers and literals as their lexeme, strings re-escaped canonically.
 * Whitespace and equivalent escapes therefore never change it; a changed number lexeme does.
 *
 * An escape-free string lexeme is already canonical (it cannot hold a quote, backslash,
 * control character or lone surrogate), as is every number and literal, so those are copied
 * byte for byte from the document; so is an escaped lexeme without `\u` or `\/`, whose other
 * escapes are their own canonical spelling. Only the rest are re-escaped, byte by byte.
 *
 * Writes `prefix` (a digest's domain label) and then the canonical form through `buffer` (two
 * bytes or more), which never grows: each time it fills, `full` receives it, and the unsent
 * rest is returned. A 4 MiB document is thus hashed without a 4 MiB copy. `omit` holds tape
 * indices of array elements and of member values to leave out (with their keys), which is how
 * a remainder drops the owned entry.
 */
export function writeCanonical(
  node: JsonNode,
  buffer: Uint8Array,
  full: CanonicalSink,
  omit: ReadonlySet<number> = NOTHING,
  prefix: Uint8Array = NO_PREFIX,
): Uint8Array {
  const writer = new CanonicalWriter(node.tape, omit, buffer, full);
  writer.copy(prefix, 0, prefix.length);
  writer.node(node.index);
  return writer.rest();
}

const NOTHING: ReadonlySet<number> = new Set();
/**
 * From this many bytes a native copy (a subarray and a set) costs less than a loop; most
 * lexemes of a hook file are longer, so this halves the time of the canonical form.
 */
const NATIVE_COPY = 16;
const NO_PREFIX = new Uint8Array(0);

/**
 * Well-formed JSON.stringify is exactly the canonical string escaping: `\"`, `\\`, the five
 * short control escapes, other code units below 0x20 and every unpaired surrogate as
 * lowercase `\uXXXX`, everything else literal.
 */
export function canonicalString(value: string): string {
  return JSON.stringify(value);
}

class CanonicalWriter {
  private readonly source: Uint8Array;
  private pos = 0;

  constructor(
    private readonly tape: Tape,
    private readonly omit: ReadonlySet<number>,
    private readonly out: Uint8Array,
    private readonly full: CanonicalSink,
  ) {
    this.source = tape.bytes;
  }

  rest(): Uint8Array {
    return this.out.subarray(0, this.pos);
  }

  node(index: number): void {
    const { tape } = this;
    switch (tape.tag(index)) {
      case Tag.Object:
        this.object(index);
        return;
      case Tag.Array:
        this.array(index);
        return;
      case Tag.String:
        if (tape.rewritten(index)) {
          this.escapedString(tape.start(index), tape.end(index));
          return;
        }
        break;
    }
    this.copy(this.source, tape.start(index), tape.end(index));
  }

  private array(index: number): void {
    const { tape, omit } = this;
    const checkOmit = omit.size > 0;
    const end = tape.next(index);
    this.byte(OPEN_ARRAY);
    let first = true;
    for (let child = index + 1; child < end; child = tape.next(child)) {
      if (checkOmit && omit.has(child)) continue;
      if (!first) this.byte(COMMA);
      first = false;
      this.node(child);
    }
    this.byte(CLOSE_ARRAY);
  }

  private object(index: number): void {
    const { tape, omit } = this;
    const checkOmit = omit.size > 0;
    this.byte(OPEN_OBJECT);
    let first = true;
    for (const key of tape.sortedKeys(index)) {
      if (checkOmit && omit.has(key + 1)) continue;
      if (!first) this.byte(COMMA);
      first = false;
      this.node(key);
      this.byte(COLON);
      this.node(key + 1);
    }
    this.byte(CLOSE_OBJECT);
  }

  /** Hands the buffer on unless `bytes` more still fit in it. */
  private reserve(bytes: number): void {
    if (this.pos + bytes > this.out.length) {
      this.full(this.out.subarray(0, this.pos));
      this.pos = 0;
    }
  }

  private byte(value: number): void {
    this.reserve(1);
    this.out[this.pos++] = value;
  }

  private bytes2(first: number, second: number): void {
    this.reserve(2);
    this.out[this.pos++] = first;
    this.out[this.pos++] = second;
  }

  /** Copies `from[start, end)`: a short run by hand, a long one natively, a buffer at a time. */
  copy(from: Uint8Array, start: number, end: number): void {
    const { out } = this;
    if (end - start < NATIVE_COPY && this.pos + (end - start) <= out.length) {
      let pos = this.pos;
      for (let i = start; i < end; i++) out[pos++] = from[i] as number;
      this.pos = pos;
      return;
    }
    for (let p = start; p < end; ) {
      this.reserve(1);
      const bytes = Math.min(end - p, out.length - this.pos);
      out.set(from.subarray(p, p + bytes), this.pos);
      this.pos += bytes;
      p += bytes;
    }
  }

  /**
   * Re-escapes an escaped lexeme byte by byte, never decoding it to a string: literal bytes
   * are kept, `\/` becomes `/`, and each `\uXXXX` becomes what JSON.stringify would write
   * for that code unit (a short escape, lowercase `\u00xx`, a lone surrogate as lowercase
   * `\udxxx`, or the character itself, with a surrogate pair joined into one code point).
   */
  private escapedString(start: number, end: number): void {
    const { source } = this;
    let p = start;
    while (p < end) {
      // Up to the next `\u` or `\/`, the lexeme is already canonical: literal bytes and the
      // other two-character escapes, which are their own canonical form. It is copied as a run.
      let run = p;
      while (run < end) {
        if (source[run] !== BACKSLASH) {
          run++;
          continue;
        }
        const marker = source[run + 1];
        if (marker === LOWER_U || marker === SLASH) break;
        run += 2;
      }
      this.copy(source, p, run);
      p = run;
      if (p >= end) return;
      // `\/` is the one two-character escape whose canonical form is the bare character.
      if (source[p + 1] === SLASH) {
        this.byte(SLASH);
        p += 2;
        continue;
      }
      const unit = hexUnit(source, p + 2);
      p += 6;
      if (
        unit >= 0xd800 &&
        unit <= 0xdbff &&
        source[p] === BACKSLASH &&
        source[p + 1] === LOWER_U
      ) {
        const low = hexUnit(source, p + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          this.codePoint(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
          p += 6;
          continue;
        }
      }
      this.unit(unit);
    }
  }

  /** One UTF-16 code unit (never half of a pair here) in canonical form. */
  private unit(unit: number): void {
    const short = unit < SHORT_ESCAPE.length ? (SHORT_ESCAPE[unit] as number) : 0;
    if (short !== 0) this.bytes2(BACKSLASH, short);
    else if (unit < 0x20 || (unit >= 0xd800 && unit <= 0xdfff)) this.hexEscape(unit);
    else this.codePoint(unit);
  }

  private hexEscape(unit: number): void {
    this.bytes2(BACKSLASH, LOWER_U);
    for (let shift = 12; shift >= 0; shift -= 4)
      this.byte(HEX_DIGITS[(unit >> shift) & 0xf] as number);
  }

  /** UTF-8 of a scalar value. */
  private codePoint(cp: number): void {
    if (cp < 0x80) {
      this.byte(cp);
    } else if (cp < 0x800) {
      this.bytes2(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      this.bytes2(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f));
      this.byte(0x80 | (cp & 0x3f));
    } else {
      this.bytes2(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f));
      this.bytes2(0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    }
  }
}
