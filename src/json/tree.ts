import { Buffer } from 'node:buffer';
import { BACKSLASH, LOWER_U } from './bytes.js';
import { decodeLexeme, hexUnit, SIMPLE_ESCAPE_UNIT } from './escape.js';

// The value tree. Spans are byte offsets into the source document; the bytes between sibling
// spans are the exact separators (whitespace and commas) around each node, so every edit is a
// splice and everything outside it keeps its bytes.
//
// The parser records nodes on a tape (four integers per node, in document order) rather than
// as objects: a 65,536-node document is then one small typed array that the garbage collector
// never traces. Node objects are thin views made on demand; they hold no state of their own.

export interface Span {
  readonly start: number;
  readonly end: number;
}

interface NodeBase extends Span {
  /** Position on the tape: the identity of a node, stable across views. */
  readonly index: number;
  readonly tape: Tape;
}

export interface JsonObject extends NodeBase {
  readonly kind: 'object';
  readonly members: readonly JsonMember[];
}

export interface JsonMember {
  readonly key: JsonString;
  readonly value: JsonNode;
}

export interface JsonArray extends NodeBase {
  readonly kind: 'array';
  readonly elements: readonly JsonNode[];
}

/** The raw lexeme is the span; `value` is the decoded UTF-16 content. */
export interface JsonString extends NodeBase {
  readonly kind: 'string';
  /** The lexeme holds at least one backslash escape. */
  readonly escaped: boolean;
  readonly value: string;
}

/** Numbers are only ever their lexeme: never a JS number, so nothing is rounded. */
export interface JsonNumber extends NodeBase {
  readonly kind: 'number';
  readonly lexeme: string;
}

export interface JsonLiteral extends NodeBase {
  readonly kind: 'literal';
  readonly lexeme: 'true' | 'false' | 'null';
}

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;

/** A parsed document: its source bytes and root. */
export interface JsonTree {
  readonly bytes: Uint8Array;
  readonly root: JsonNode;
}

/** Node kinds as recorded on the tape. */
export const Tag = {
  Object: 0,
  Array: 1,
  String: 2,
  Number: 3,
  True: 4,
  False: 5,
  Null: 6,
} as const;

export type Tag = (typeof Tag)[keyof typeof Tag];

const KIND_MASK = 7;
/** Or-ed into a string's tag when its lexeme holds a backslash escape. */
export const ESCAPED = 8;
/**
 * Or-ed in as well when one of those escapes is `\u` or `\/`, the only ones canonical form
 * (SPEC §5) may spell differently: a lexeme without it is its own canonical form.
 */
export const REWRITTEN = 16;
const SLOTS = 4;
/**
 * Up to this many bytes a plain loop is cheaper than a native call or a decode: the length of
 * a lexeme read code unit by code unit in place, of the last stretch of a first-difference
 * search, and of a backslash run counted before a differing byte.
 */
const SHORT_LEXEME = 64;
/** Objects up to this many keys are sorted by insertion. */
const SMALL_OBJECT = 8;
/** Node's Buffer pool serves requests below half its 8 KiB slab. */
const POOLED_BYTES = 4095;

/**
 * Slots for a tape. A typed array over 64 bytes costs a fresh backing store (about 2 µs, more
 * than parsing a small document), so small tapes are carved from Node's Buffer pool instead.
 * The pool is not zeroed: the tape writes every slot before it is read.
 */
function allocateSlots(length: number): Int32Array {
  const bytes = length * Int32Array.BYTES_PER_ELEMENT;
  if (bytes <= POOLED_BYTES) {
    const pooled = Buffer.allocUnsafe(bytes);
    if (pooled.byteOffset % Int32Array.BYTES_PER_ELEMENT === 0) {
      return new Int32Array(pooled.buffer, pooled.byteOffset, length);
    }
  }
  return new Int32Array(length);
}

/**
 * The parsed nodes in document order. Per node: tag (kind, plus the escaped flag for
 * strings), start, end, and `next`, the index just past the node's subtree, so a container's
 * children are `index + 1`, then each child's `next`, up to the container's own `next`. An
 * object's children alternate key, value.
 */
export class Tape {
  private slots: Int32Array;
  private length = 0;
  private readonly decoded = new Map<number, string>();
  /** Sorted keys of the objects, by object index. */
  private readonly orders = new Map<number, number[]>();
  /** The code unit readUnit read last. */
  private unit = 0;

  constructor(
    readonly bytes: Uint8Array,
    /** A Buffer over the same memory, for decoding. */
    readonly view: Buffer,
    expectedNodes: number,
  ) {
    this.slots = allocateSlots(SLOTS * Math.max(1, expectedNodes));
  }

  /** Nodes in the subtree rooted at `index`, itself included. */
  subtreeSize(index: number): number {
    return this.next(index) - index;
  }

  /** Appends a node whose `next` is filled in by `close` (containers) or now (scalars). */
  push(tag: number, start: number, end: number): number {
    if (this.length * SLOTS === this.slots.length) {
      const grown = allocateSlots(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    const index = this.length++;
    const slot = index * SLOTS;
    this.slots[slot] = tag;
    this.slots[slot + 1] = start;
    this.slots[slot + 2] = end;
    this.slots[slot + 3] = index + 1;
    return index;
  }

  /** Records a container's end once its children are on the tape. */
  close(index: number, end: number): void {
    this.slots[index * SLOTS + 2] = end;
    this.slots[index * SLOTS + 3] = this.length;
  }

  tag(index: number): Tag {
    return ((this.slots[index * SLOTS] as number) & KIND_MASK) as Tag;
  }

  escaped(index: number): boolean {
    return ((this.slots[index * SLOTS] as number) & ESCAPED) !== 0;
  }

  start(index: number): number {
    return this.slots[index * SLOTS + 1] as number;
  }

  end(index: number): number {
    return this.slots[index * SLOTS + 2] as number;
  }

  next(index: number): number {
    return this.slots[index * SLOTS + 3] as number;
  }

  /** Whether the string node's lexeme differs from its canonical form (see REWRITTEN). */
  rewritten(index: number): boolean {
    return ((this.slots[index * SLOTS] as number) & REWRITTEN) !== 0;
  }

  /**
   * The decoded content of the string node at `index`, decoded at most once per tape:
   * comparisons (repeated-key checks, key sorts) reach the same key many times, and a key of
   * a million escapes must not be decoded on each of them.
   */
  stringValue(index: number): string {
    let text = this.decoded.get(index);
    if (text === undefined) {
      text = decodeLexeme(
        this.view,
        this.start(index) + 1,
        this.end(index) - 1,
        this.escaped(index),
      );
      this.decoded.set(index, text);
    }
    return text;
  }

  /**
   * Whether the string node at `index` decodes to `text`, read in place: it stops at the first
   * differing code unit, so a long key is never decoded to be told from a short name.
   */
  stringEquals(index: number, text: string): boolean {
    const end = (this.end(index) - 1) * 2;
    let cursor = (this.start(index) + 1) * 2;
    let i = 0;
    while (cursor < end) {
      cursor = this.readUnit(cursor);
      // Past the end of `text`, charCodeAt is NaN, which equals no unit.
      if (this.unit !== text.charCodeAt(i++)) return false;
    }
    return i === text.length;
  }

  /**
   * Orders two string nodes by their decoded UTF-16 code units (SPEC section 5). Lexemes that are
   * their own canonical form share a byte prefix exactly when their content does, so the first
   * differing byte is found natively and only the token holding it is read. Other lexemes are
   * read code unit by code unit in place when short, else decoded once and compared as text.
   */
  compareStrings(a: number, b: number): number {
    if (!this.rewritten(a) && !this.rewritten(b)) {
      const from = this.tokenStart(a, this.firstDifference(a, b));
      if (from >= 0) return this.compareUnits(a, b, from);
    } else if (this.isShort(a) && this.isShort(b)) {
      return this.compareUnits(a, b, 0);
    }
    return compareText(this.stringValue(a), this.stringValue(b));
  }

  /**
   * Sorts the keys of the (closed) object at `index` in the order of compareStrings and keeps
   * the order for every digest; returns whether two keys are equal, which are neighbours then.
   * The parser calls it once per object.
   */
  sortKeys(index: number): boolean {
    return this.sortAndKeep(index).repeated;
  }

  /** The keys of the object at `index` as sortKeys ordered them. */
  sortedKeys(index: number): readonly number[] {
    return this.orders.get(index) ?? this.sortAndKeep(index).keys;
  }

  private sortAndKeep(index: number): { keys: number[]; repeated: boolean } {
    const keys: number[] = [];
    for (let key = index + 1; key < this.next(index); key = this.next(key + 1)) keys.push(key);
    const repeated = keys.length <= SMALL_OBJECT ? this.insertionSort(keys) : this.sortLarge(keys);
    this.orders.set(index, keys);
    return { keys, repeated };
  }

  /**
   * A handful of keys: several times cheaper than Array.prototype.sort with a comparator.
   * Returns whether two keys are equal: inserting a key stops at the last one not above it,
   * which is its equal if it has one.
   */
  private insertionSort(keys: number[]): boolean {
    let repeated = false;
    for (let i = 1; i < keys.length; i++) {
      const key = keys[i] as number;
      let j = i - 1;
      for (; j >= 0; j--) {
        const order = this.compareStrings(keys[j] as number, key);
        if (order === 0) repeated = true;
        if (order <= 0) break;
        keys[j + 1] = keys[j] as number;
      }
      keys[j + 1] = key;
    }
    return repeated;
  }

  /**
   * Keys that are their own canonical form compare in place; once one is not, every key is
   * decoded once and the engine compares the texts, so no comparison reads a long escaped
   * lexeme code unit by code unit. Returns whether two keys are equal (then neighbours).
   */
  private sortLarge(keys: number[]): boolean {
    if (!keys.some((key) => this.rewritten(key))) {
      keys.sort((a, b) => this.compareStrings(a, b));
      return keys.some((key, i) => i > 0 && this.sameBytes(keys[i - 1] as number, key));
    }
    const texts = keys.map((key) => ({ key, text: this.stringValue(key) }));
    texts.sort((x, y) => compareText(x.text, y.text));
    texts.forEach((entry, i) => {
      keys[i] = entry.key;
    });
    return texts.some(
      (entry, i) => i > 0 && (texts[i - 1] as { text: string }).text === entry.text,
    );
  }

  /** Whether two lexemes hold the same bytes; long ones are compared natively. */
  private sameBytes(a: number, b: number): boolean {
    const length = this.end(a) - this.start(a);
    return length === this.end(b) - this.start(b) && this.firstDifference(a, b) === length - 2;
  }

  private isShort(index: number): boolean {
    return this.end(index) - this.start(index) <= SHORT_LEXEME;
  }

  /**
   * The offset into both contents of their first differing byte, or the shorter content's
   * length. A long shared prefix is skipped by halving with native comparisons, a few calls
   * for a megabyte; the last stretch is read byte by byte.
   */
  private firstDifference(a: number, b: number): number {
    const { bytes, view } = this;
    const x = this.start(a) + 1;
    const y = this.start(b) + 1;
    let low = 0;
    let high = Math.min(this.end(a) - 1 - x, this.end(b) - 1 - y);
    while (high - low > SHORT_LEXEME) {
      const middle = (low + high) >>> 1;
      if (view.compare(view, y + low, y + middle, x + low, x + middle) === 0) low = middle;
      else high = middle;
    }
    while (low < high && bytes[x + low] === bytes[y + low]) low++;
    return low;
  }

  /**
   * The offset of the token (character or escape) holding content offset `offset` of a
   * lexeme without `\u`: back over UTF-8 continuation bytes, then one more when an odd run of
   * backslashes ends there (the byte is an escape's marker). -1 when that run is too long to
   * count cheaply; the caller then compares decoded text.
   */
  private tokenStart(index: number, offset: number): number {
    const { bytes } = this;
    const x = this.start(index) + 1;
    let p = offset;
    while (p > 0 && ((bytes[x + p] as number) & 0xc0) === 0x80) p--;
    let run = 0;
    while (run < p && bytes[x + p - 1 - run] === BACKSLASH) {
      if (++run > SHORT_LEXEME) return -1;
    }
    return run % 2 === 1 ? p - 1 : p;
  }

  /**
   * Orders two lexemes code unit by code unit from content offset `from` (a token boundary in
   * both, which share every byte before it), reading escapes in place (see readUnit).
   */
  private compareUnits(a: number, b: number, from: number): number {
    const aEnd = (this.end(a) - 1) * 2;
    const bEnd = (this.end(b) - 1) * 2;
    let x = (this.start(a) + 1 + from) * 2;
    let y = (this.start(b) + 1 + from) * 2;
    while (x < aEnd && y < bEnd) {
      x = this.readUnit(x);
      const unit = this.unit;
      y = this.readUnit(y);
      if (unit !== this.unit) return unit - this.unit;
    }
    return (x < aEnd ? 1 : 0) - (y < bEnd ? 1 : 0);
  }

  /**
   * Reads the code unit at `cursor` into `unit` and returns the next cursor. A cursor is a byte
   * offset times two, plus one while the low surrogate of a four-byte sequence is still due.
   */
  private readUnit(cursor: number): number {
    const { bytes } = this;
    const p = cursor >> 1;
    const lead = bytes[p] as number;
    if (lead === BACKSLASH) {
      const marker = bytes[p + 1] as number;
      if (marker === LOWER_U) {
        this.unit = hexUnit(bytes, p + 2);
        return (p + 6) * 2;
      }
      this.unit = SIMPLE_ESCAPE_UNIT[marker] as number;
      return (p + 2) * 2;
    }
    if (lead <= 0x7f) {
      this.unit = lead;
      return (p + 1) * 2;
    }
    const point = codePointAt(bytes, p, lead);
    if (point <= 0xffff) {
      this.unit = point;
      return (p + (lead <= 0xdf ? 2 : 3)) * 2;
    }
    if ((cursor & 1) === 0) {
      this.unit = 0xd7c0 + (point >> 10);
      return cursor + 1;
    }
    this.unit = 0xdc00 + (point & 0x3ff);
    return (p + 4) * 2;
  }

  /** Calls `visit` with each element of the array at `index` and its position. */
  eachElement(index: number, visit: (element: number, position: number) => void): void {
    let position = 0;
    for (let child = index + 1; child < this.next(index); child = this.next(child)) {
      visit(child, position++);
    }
  }

  /** Calls `visit` with the key and value of each member of the object at `index`. */
  eachMember(index: number, visit: (key: number, value: number) => void): void {
    for (let key = index + 1; key < this.next(index); key = this.next(key + 1)) visit(key, key + 1);
  }

  /** The value index of member `key` of the object at `index`, or -1. */
  member(index: number, key: string): number {
    for (let child = index + 1; child < this.next(index); child = this.next(child + 1)) {
      if (this.stringEquals(child, key)) return child + 1;
    }
    return -1;
  }

  /** A view of the node at `index`. */
  node(index: number): JsonNode {
    switch (this.tag(index)) {
      case Tag.Object:
        return new ObjectView(this, index);
      case Tag.Array:
        return new ArrayView(this, index);
      case Tag.String:
        return new StringView(this, index);
      case Tag.Number:
        return new NumberView(this, index);
      default:
        return new LiteralView(this, index);
    }
  }
}

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The scalar value of the (already validated) multi-byte UTF-8 sequence at `p`. */
function codePointAt(bytes: Uint8Array, p: number, lead: number): number {
  const b1 = (bytes[p + 1] as number) & 0x3f;
  if (lead <= 0xdf) return ((lead & 0x1f) << 6) | b1;
  const b2 = (bytes[p + 2] as number) & 0x3f;
  if (lead <= 0xef) return ((lead & 0x0f) << 12) | (b1 << 6) | b2;
  return ((lead & 0x07) << 18) | (b1 << 12) | (b2 << 6) | ((bytes[p + 3] as number) & 0x3f);
}

abstract class View {
  constructor(
    readonly tape: Tape,
    readonly index: number,
  ) {}

  get start(): number {
    return this.tape.start(this.index);
  }

  get end(): number {
    return this.tape.end(this.index);
  }
}

class ObjectView extends View implements JsonObject {
  readonly kind = 'object';

  get members(): readonly JsonMember[] {
    const { tape } = this;
    const members: JsonMember[] = [];
    tape.eachMember(this.index, (key, value) => {
      members.push({ key: new StringView(tape, key), value: tape.node(value) });
    });
    return members;
  }
}

class ArrayView extends View implements JsonArray {
  readonly kind = 'array';

  get elements(): readonly JsonNode[] {
    const { tape } = this;
    const elements: JsonNode[] = [];
    tape.eachElement(this.index, (element) => {
      elements.push(tape.node(element));
    });
    return elements;
  }
}

class StringView extends View implements JsonString {
  readonly kind = 'string';

  get escaped(): boolean {
    return this.tape.escaped(this.index);
  }

  get value(): string {
    return this.tape.stringValue(this.index);
  }
}

class NumberView extends View implements JsonNumber {
  readonly kind = 'number';

  get lexeme(): string {
    return this.tape.view.toString('latin1', this.start, this.end);
  }
}

const LITERALS = ['true', 'false', 'null'] as const;

class LiteralView extends View implements JsonLiteral {
  readonly kind = 'literal';

  get lexeme(): JsonLiteral['lexeme'] {
    return LITERALS[this.tape.tag(this.index) - Tag.True] as JsonLiteral['lexeme'];
  }
}

/** The value of member `key` (compared by decoded code units), if present. */
export function memberValue(object: JsonObject, key: string): JsonNode | undefined {
  const value = object.tape.member(object.index, key);
  return value === -1 ? undefined : object.tape.node(value);
}
