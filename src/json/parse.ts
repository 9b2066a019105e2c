import { UnsupportedError } from '../errors/errors.js';
import { MAX_DEPTH } from '../limits.js';
import {
  BACKSLASH,
  bufferOf,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  DOT,
  isJsonWhitespace,
  LOWER_U,
  MINUS,
  NINE,
  OPEN_ARRAY,
  OPEN_OBJECT,
  PLUS,
  QUOTE,
  SLASH,
  ZERO,
} from './bytes.js';
import { isHexDigit, SIMPLE_ESCAPE_UNIT } from './escape.js';
import { positionAt } from './position.js';
import { ESCAPED, type JsonNode, REWRITTEN, Tag, Tape } from './tree.js';

/**
 * Strict RFC 8259 bytes to tree. The bytes must already be validated as strict UTF-8 and
 * within budget; the depth check here only guarantees the recursion stays bounded whatever
 * the caller did. Nodes go onto a tape, sized by `expectedNodes` (the budget pass's count).
 * Each object's keys are sorted once it closes, so equal keys are found as neighbours and
 * the digests reuse the order.
 */
export function parseJson(bytes: Uint8Array, expectedNodes = 16): JsonNode {
  const tape = new Tape(bytes, bufferOf(bytes), expectedNodes);
  new Parser(bytes, tape).document();
  return tape.node(0);
}

/** 1 for bytes a string lexeme may hold as they are: not a quote, backslash or control. */
const PLAIN_IN_STRING = new Uint8Array(256).fill(1, 0x20);
PLAIN_IN_STRING[QUOTE] = 0;
PLAIN_IN_STRING[BACKSLASH] = 0;

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

  constructor(
    private readonly bytes: Uint8Array,
    private readonly tape: Tape,
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

  /**
   * Validates a string lexeme (no raw control characters, only RFC 8259 escapes) and tags it:
   * ESCAPED when it holds an escape, REWRITTEN too when one of them is `\u` or `\/`.
   */
  private string(): number {
    const bytes = this.bytes;
    const length = bytes.length;
    const start = this.pos;
    let tag: number = Tag.String;
    let p = start + 1;
    for (;;) {
      // One table lookup per plain byte; only the bytes that end the run are told apart.
      while (p < length && PLAIN_IN_STRING[bytes[p] as number] === 1) p++;
      if (p >= length) throw syntaxError(bytes, p);
      const byte = bytes[p] as number;
      if (byte === QUOTE) break;
      if (byte !== BACKSLASH) throw syntaxError(bytes, p);
      // Past the end of the input the marker is undefined, which no branch below accepts.
      const marker = bytes[p + 1] as number;
      // A two-character escape is read inline: a run of a million `\n` is one loop.
      if ((SIMPLE_ESCAPE_UNIT[marker] as number) > 0) {
        tag |= marker === SLASH ? ESCAPED | REWRITTEN : ESCAPED;
        p += 2;
        continue;
      }
      if (marker !== LOWER_U) throw syntaxError(bytes, p + 1);
      for (let i = p + 2; i < p + 6; i++) if (!isHexDigit(bytes[i])) throw syntaxError(bytes, i);
      tag |= ESCAPED | REWRITTEN;
      p += 6;
    }
    this.pos = p + 1;
    return this.tape.push(tag, start, this.pos);
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
