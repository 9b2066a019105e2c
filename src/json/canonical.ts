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

/** Code units with a two-character canonical escape, mapped to the byte after the backslash. */
const SHORT_ESCAPES: ReadonlyMap<number, number> = new Map([
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x08, 0x62],
  [0x0c, 0x66],
  [0x0a, 0x6e],
  [0x0d, 0x72],
  [0x09, 0x74],
]);

/**
 * The canonical form (SPEC §5) as UTF-8: no whitespace, members sorted by key code units,
 * arrays in order, numbers and literals as their lexeme, strings re-escaped canonically.
 * Whitespace and equivalent escapes therefore never change it; a changed number lexeme does.
 *
 * An escape-free string lexeme is already canonical (it cannot hold a quote, backslash,
 * control character or lone surrogate), as is every number and literal, so those are copied
 * byte for byte from the document; only escaped strings are re-escaped, byte by byte.
 * Canonical text is never longer than the span it comes from, which bounds the output buffer.
 * `omit` holds tape indices of array elements and member values to leave out.
 */
/**
 * Writes `prefix` (a digest's domain label) and then the canonical form into `out`, which
 * must hold `prefix.length + node.end - node.start` bytes; returns the written part of `out`.
 */
export function canonicalizeInto(
  out: Uint8Array,
  node: JsonNode,
  omit: ReadonlySet<number> = NOTHING,
  prefix: Uint8Array = NO_PREFIX,
): Uint8Array {
  out.set(prefix);
  const writer = new CanonicalWriter(node.tape, omit, out, prefix.length);
  writer.node(node.index);
  return writer.result();
}

const NOTHING: ReadonlySet<number> = new Set();
const NO_PREFIX = new Uint8Array(0);

/**
 * Well-formed JSON.stringify is exactly the canonical string escaping: `\"`, `\\`, the five
 * short control escapes, other code units below 0x20 and every unpaired surrogate as
 * lowercase `\uXXXX`, everything else literal.
 */
export function canonicalString(value: string): string {
  return JSON.stringify(value);
}

/**
 * Writes straight from the tape. `omit` holds tape indices of array elements and of member
 * values to leave out (with their keys), which is how a remainder drops the owned entry.
 */
/**
 * Orders key indices by their decoded code units. Keys are unique (the parser refuses
 * duplicates), so the order is total. Most objects hold a handful of keys, for which an
 * insertion sort is several times cheaper than Array.prototype.sort with a comparator.
 */
function sortKeys(tape: Tape, keys: number[]): void {
  if (keys.length > 16) {
    keys.sort((a, b) => tape.compareDecoded(a, b));
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as number;
    let j = i - 1;
    while (j >= 0 && tape.compareStrings(keys[j] as number, key) > 0) {
      keys[j + 1] = keys[j] as number;
      j--;
    }
    keys[j + 1] = key;
  }
}

class CanonicalWriter {
  private readonly source: Uint8Array;

  constructor(
    private readonly tape: Tape,
    private readonly omit: ReadonlySet<number>,
    private readonly out: Uint8Array,
    private pos: number,
  ) {
    this.source = tape.bytes;
  }

  result(): Uint8Array {
    return this.out.subarray(0, this.pos);
  }

  node(index: number): void {
    const { tape } = this;
    switch (tape.tag(index)) {
      case Tag.Object:
        this.object(index);
        return;
      case Tag.Array: {
        this.byte(OPEN_ARRAY);
        let first = true;
        for (let child = index + 1; child < tape.next(index); child = tape.next(child)) {
          if (this.omit.has(child)) continue;
          if (!first) this.byte(COMMA);
          first = false;
          this.node(child);
        }
        this.byte(CLOSE_ARRAY);
        return;
      }
      case Tag.String:
        if (tape.escaped(index)) this.escapedString(tape.start(index), tape.end(index));
        else this.copy(tape.start(index), tape.end(index));
        return;
      default:
        this.copy(tape.start(index), tape.end(index));
    }
  }

  private object(index: number): void {
    const { tape, omit } = this;
    const keys: number[] = [];
    for (let key = index + 1; key < tape.next(index); key = tape.next(key + 1)) {
      if (!omit.has(key + 1)) keys.push(key);
    }
    sortKeys(tape, keys);
    this.byte(OPEN_OBJECT);
    for (let position = 0; position < keys.length; position++) {
      const key = keys[position] as number;
      if (position > 0) this.byte(COMMA);
      this.node(key);
      this.byte(COLON);
      this.node(key + 1);
    }
    this.byte(CLOSE_OBJECT);
  }

  private byte(value: number): void {
    this.out[this.pos++] = value;
  }

  private copy(start: number, end: number): void {
    const { source, out } = this;
    // Short runs copy faster by hand than through a subarray view.
    if (end - start < 64) {
      let pos = this.pos;
      for (let i = start; i < end; i++) out[pos++] = source[i] as number;
      this.pos = pos;
    } else {
      out.set(source.subarray(start, end), this.pos);
      this.pos += end - start;
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
      this.copy(p, run);
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
    const short = SHORT_ESCAPES.get(unit);
    if (short !== undefined) this.bytes2(BACKSLASH, short);
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

  private bytes2(first: number, second: number): void {
    this.out[this.pos++] = first;
    this.out[this.pos++] = second;
  }
}
