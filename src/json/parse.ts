import { UnsupportedError } from '../errors/errors.js';
import { MAX_DEPTH } from '../limits.js';
import {
  bufferOf,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  DOT,
  isJsonWhitespace,
  MINUS,
  NINE,
  OPEN_ARRAY,
  OPEN_OBJECT,
  PLUS,
  QUOTE,
  ZERO,
} from './bytes.js';
import { positionAt } from './position.js';
import { lexemeEnd, lexemeTag, readStringLexeme } from './string-lexeme.js';
import type { StringSpans } from './string-spans.js';
import { type JsonNode, Tag, Tape } from './tree.js';

/**
 * Strict RFC 8259 bytes to tree. The bytes must already be validated as strict UTF-8 and
 * within budget; the depth check here only guarantees the recursion stays bounded whatever
 * the caller did. Nodes go onto a tape, sized by `expectedNodes` (the budget pass's count);
 * `spans` holds the budget pass's readings of the strings, if it made them for these bytes.
 * Each object's keys are sorted once it closes, so equal keys are found as neighbours and
 * the digests reuse the order.
 */
export function parseJson(bytes: Uint8Array, expectedNodes = 16, spans?: StringSpans): JsonNode {
  const tape = new Tape(bytes, bufferOf(bytes), expectedNodes);
  new Parser(bytes, tape, spans).document();
  return tape.node(0);
}

/**
 * The refusal at `offset`, the first byte no valid document could hold there. A closing
 * bracket or brace after a comma is refused at the comma, the byte a user has to delete.
 */
function syntaxError(bytes: Uint8Array, offset: number): UnsupportedError {
  let at = offset;
  const byte = bytes[offset];
  if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
    let before = offset - 1;
    while (before >= 0 && isJsonWhitespace(bytes[before] as number)) before--;
    if (bytes[before] === COMMA) at = before;
  }
  return new UnsupportedError('json-syntax', { at: positionAt(bytes, at) });
}

/** The refusal of an object that repeats a key, at the key's second occurrence. */
function duplicateKey(tape: Tape, object: number): UnsupportedError {
  const seen = new Set<string>();
  let repeated = -1;
  tape.eachMember(object, (key) => {
    const text = tape.stringValue(key);
    if (repeated < 0 && seen.has(text)) repeated = tape.start(key);
    seen.add(text);
  });
  return new UnsupportedError('json-duplicate-key', { at: positionAt(tape.bytes, repeated) });
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

class Parser {
  private pos = 0;
  /** Strings read so far: the index of the next one among the budget pass's readings. */
  private strings = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly tape: Tape,
    private readonly spans: StringSpans | undefined,
  ) {}

  document(): void {
    this.skipWhitespace();
    this.value(1);
    this.skipWhitespace();
    if (this.pos !== this.bytes.length) throw syntaxError(this.bytes, this.pos);
  }

  private value(depth: number): void {
    switch (this.bytes[this.pos]) {
      case OPEN_OBJECT:
        this.object(depth);
        return;
      case OPEN_ARRAY:
        this.array(depth);
        return;
      case QUOTE:
        this.string();
        return;
      case 0x74:
        this.literal('true', Tag.True);
        return;
      case 0x66:
        this.literal('false', Tag.False);
        return;
      case 0x6e:
        this.literal('null', Tag.Null);
        return;
      default:
        this.number();
    }
  }

  private object(depth: number): void {
    if (depth > MAX_DEPTH) throw this.tooDeep();
    const { bytes, tape } = this;
    const node = tape.push(Tag.Object, this.pos++, 0);
    this.skipWhitespace();
    if (bytes[this.pos] === CLOSE_OBJECT) {
      tape.close(node, ++this.pos);
      return;
    }
    let count = 0;
    for (;;) {
      if (bytes[this.pos] !== QUOTE) throw syntaxError(bytes, this.pos);
      this.string();
      count++;
      this.skipWhitespace();
      if (bytes[this.pos] !== COLON) throw syntaxError(bytes, this.pos);
      this.pos++;
      this.skipWhitespace();
      this.value(depth + 1);
      this.skipWhitespace();
      const next = bytes[this.pos++];
      if (next === CLOSE_OBJECT) break;
      if (next !== COMMA) throw syntaxError(bytes, this.pos - 1);
      this.skipWhitespace();
    }
    tape.close(node, this.pos);
    if (count > 1 && tape.sortKeys(node)) throw duplicateKey(tape, node);
  }

  private array(depth: number): void {
    if (depth > MAX_DEPTH) throw this.tooDeep();
    const { bytes, tape } = this;
    const node = tape.push(Tag.Array, this.pos++, 0);
    this.skipWhitespace();
    if (bytes[this.pos] === CLOSE_ARRAY) {
      tape.close(node, ++this.pos);
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipWhitespace();
      const next = bytes[this.pos++];
      if (next === CLOSE_ARRAY) break;
      if (next !== COMMA) throw syntaxError(bytes, this.pos - 1);
      this.skipWhitespace();
    }
    tape.close(node, this.pos);
  }

  /** Reads a string lexeme, taking the budget pass's reading of it when there is one. */
  private string(): number {
    const start = this.pos;
    const { bytes, spans } = this;
    let reading = spans === undefined ? -1 : spans.reading(bytes, this.strings, start);
    this.strings++;
    if (reading < 0) reading = readStringLexeme(bytes, start);
    if (reading < 0) throw syntaxError(bytes, -1 - reading);
    this.pos = lexemeEnd(reading);
    return this.tape.push(lexemeTag(reading), start, this.pos);
  }

  private number(): void {
    const bytes = this.bytes;
    const start = this.pos;
    let p = start;
    if (bytes[p] === MINUS) p++;
    const first = bytes[p];
    if (first === ZERO) {
      p++;
    } else if (first !== undefined && first > ZERO && first <= NINE) {
      p++;
      while (isDigit(bytes[p])) p++;
    } else {
      throw syntaxError(bytes, p);
    }
    if (bytes[p] === DOT) {
      p++;
      if (!isDigit(bytes[p])) throw syntaxError(bytes, p);
      while (isDigit(bytes[p])) p++;
    }
    const exponent = bytes[p];
    if (exponent === 0x65 || exponent === 0x45) {
      p++;
      const sign = bytes[p];
      if (sign === PLUS || sign === MINUS) p++;
      if (!isDigit(bytes[p])) throw syntaxError(bytes, p);
      while (isDigit(bytes[p])) p++;
    }
    this.pos = p;
    this.tape.push(Tag.Number, start, p);
  }

  private literal(word: string, tag: Tag): void {
    const start = this.pos;
    for (let i = 0; i < word.length; i++) {
      if (this.bytes[start + i] !== word.charCodeAt(i)) throw syntaxError(this.bytes, start + i);
    }
    this.pos = start + word.length;
    this.tape.push(tag, start, this.pos);
  }

  private tooDeep(): UnsupportedError {
    return new UnsupportedError('document-too-deep', { at: positionAt(this.bytes, this.pos) });
  }

  private skipWhitespace(): void {
    const bytes = this.bytes;
    const length = bytes.length;
    let p = this.pos;
    while (p < length && isJsonWhitespace(bytes[p] as number)) p++;
    this.pos = p;
  }
}
