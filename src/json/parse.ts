import { Buffer } from 'node:buffer';
import { UnsupportedError } from '../errors/errors.js';
import { MAX_DEPTH } from '../limits.js';
import { BACKSLASH, hexUnit, hexValue, LOWER_U, SIMPLE_ESCAPES } from './escape.js';
import type {
  JsonArray,
  JsonLiteral,
  JsonMember,
  JsonNode,
  JsonNumber,
  JsonObject,
  JsonString,
} from './tree.js';

const QUOTE = 0x22;

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * Strict RFC 8259 bytes to tree. The bytes must already be validated as strict UTF-8 and
 * within budget; the depth check here only guarantees the recursion stays bounded whatever
 * the caller did. String values are decoded on first use: canonical digests copy escape-free
 * lexemes as bytes and never need them.
 */
export function parseJson(bytes: Uint8Array): JsonNode {
  return new Parser(bytes).document();
}

const SMALL_OBJECT = 8;

function duplicateKey(): UnsupportedError {
  return new UnsupportedError('json-duplicate-key');
}

function syntaxError(): UnsupportedError {
  return new UnsupportedError('json-syntax');
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

/** A string node whose value is decoded from its lexeme on first read. */
class StringNode implements JsonString {
  readonly kind = 'string';
  #value: string | undefined;

  constructor(
    private readonly view: Buffer,
    readonly start: number,
    readonly end: number,
    readonly escaped: boolean,
  ) {}

  get value(): string {
    this.#value ??= decodeLexeme(this.view, this.start + 1, this.end - 1, this.escaped);
    return this.#value;
  }
}

/** A number node whose lexeme string is made on first read. */
class NumberNode implements JsonNumber {
  readonly kind = 'number';
  #lexeme: string | undefined;

  constructor(
    private readonly view: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}

  get lexeme(): string {
    this.#lexeme ??= this.view.toString('latin1', this.start, this.end);
    return this.#lexeme;
  }
}

/**
 * The string content of a lexeme body, resolving escapes; `\ud800` stays a lone surrogate.
 * Pieces are joined once at the end, so a lexeme of a million escapes is one linear pass.
 */
function decodeLexeme(view: Buffer, start: number, end: number, escaped: boolean): string {
  if (!escaped) return decodePlain(view, start, end);
  const pieces: string[] = [];
  let chunk = start;
  let p = start;
  while (p < end) {
    if (view[p] !== BACKSLASH) {
      p++;
      continue;
    }
    if (p > chunk) pieces.push(decodePlain(view, chunk, p));
    const marker = view[p + 1] as number;
    if (marker === LOWER_U) {
      pieces.push(String.fromCharCode(hexUnit(view, p + 2)));
      p += 6;
    } else {
      pieces.push(SIMPLE_ESCAPES.get(marker) as string);
      p += 2;
    }
    chunk = p;
  }
  if (end > chunk) pieces.push(decodePlain(view, chunk, end));
  return pieces.join('');
}

const SHORT_TEXT = 32;

/**
 * Escape-free UTF-8 to a string. Short ASCII runs (nearly every key) are built by hand: a
 * native decode call costs more than the few bytes it would convert.
 */
function decodePlain(view: Buffer, start: number, end: number): string {
  if (end - start > SHORT_TEXT) return view.toString('utf8', start, end);
  let text = '';
  for (let i = start; i < end; i++) {
    const byte = view[i] as number;
    if (byte >= 0x80) return view.toString('utf8', start, end);
    text += String.fromCharCode(byte);
  }
  return text;
}

class Parser {
  private pos = 0;
  private readonly view: Buffer;

  constructor(private readonly bytes: Uint8Array) {
    this.view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  document(): JsonNode {
    this.skipWhitespace();
    const root = this.value(1);
    this.skipWhitespace();
    if (this.pos !== this.bytes.length) throw syntaxError();
    return root;
  }

  private value(depth: number): JsonNode {
    switch (this.bytes[this.pos]) {
      case OPEN_OBJECT:
        return this.object(depth);
      case OPEN_ARRAY:
        return this.array(depth);
      case QUOTE:
        return this.string();
      case 0x74:
        return this.literal('true');
      case 0x66:
        return this.literal('false');
      case 0x6e:
        return this.literal('null');
      default:
        return this.number();
    }
  }

  private object(depth: number): JsonObject {
    if (depth > MAX_DEPTH) throw new UnsupportedError('document-too-deep');
    const bytes = this.bytes;
    const start = this.pos++;
    const members: JsonMember[] = [];
    this.skipWhitespace();
    if (bytes[this.pos] === CLOSE_OBJECT) {
      this.pos++;
      return { kind: 'object', start, end: this.pos, members };
    }
    let keys: Set<string> | undefined;
    for (;;) {
      if (bytes[this.pos] !== QUOTE) throw syntaxError();
      const key = this.string();
      // Keys are compared as decoded UTF-16, so "\u0076ersion" repeats "version". Small
      // objects (nearly all of them) are checked by a scan, sparing a Set per object.
      const name = key.value;
      if (members.length < SMALL_OBJECT) {
        for (const member of members) if (member.key.value === name) throw duplicateKey();
      } else {
        keys ??= new Set(members.map((member) => member.key.value));
        if (keys.has(name)) throw duplicateKey();
        keys.add(name);
      }
      this.skipWhitespace();
      if (bytes[this.pos] !== COLON) throw syntaxError();
      this.pos++;
      this.skipWhitespace();
      members.push({ key, value: this.value(depth + 1) });
      this.skipWhitespace();
      const next = bytes[this.pos++];
      if (next === CLOSE_OBJECT) break;
      if (next !== COMMA) throw syntaxError();
      this.skipWhitespace();
    }
    return { kind: 'object', start, end: this.pos, members };
  }

  private array(depth: number): JsonArray {
    if (depth > MAX_DEPTH) throw new UnsupportedError('document-too-deep');
    const bytes = this.bytes;
    const start = this.pos++;
    const elements: JsonNode[] = [];
    this.skipWhitespace();
    if (bytes[this.pos] === CLOSE_ARRAY) {
      this.pos++;
      return { kind: 'array', start, end: this.pos, elements };
    }
    for (;;) {
      elements.push(this.value(depth + 1));
      this.skipWhitespace();
      const next = bytes[this.pos++];
      if (next === CLOSE_ARRAY) break;
      if (next !== COMMA) throw syntaxError();
      this.skipWhitespace();
    }
    return { kind: 'array', start, end: this.pos, elements };
  }

  /** Validates a string lexeme: no raw control characters, only the RFC 8259 escapes. */
  private string(): JsonString {
    const bytes = this.bytes;
    const length = bytes.length;
    const start = this.pos;
    let escaped = false;
    let p = start + 1;
    for (;;) {
      if (p >= length) throw syntaxError();
      const byte = bytes[p] as number;
      if (byte === QUOTE) break;
      if (byte === BACKSLASH) {
        escaped = true;
        p = this.escapeEnd(p);
      } else if (byte < 0x20) {
        throw syntaxError();
      } else {
        p++;
      }
    }
    this.pos = p + 1;
    return new StringNode(this.view, start, this.pos, escaped);
  }

  /** Index after the escape whose backslash is at `p`. */
  private escapeEnd(p: number): number {
    const marker = this.bytes[p + 1];
    if (marker === LOWER_U) {
      for (let i = p + 2; i < p + 6; i++) if (hexValue(this.bytes[i]) < 0) throw syntaxError();
      return p + 6;
    }
    if (marker === undefined || !SIMPLE_ESCAPES.has(marker)) throw syntaxError();
    return p + 2;
  }

  private number(): JsonNumber {
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
      throw syntaxError();
    }
    if (bytes[p] === DOT) {
      p++;
      if (!isDigit(bytes[p])) throw syntaxError();
      while (isDigit(bytes[p])) p++;
    }
    const exponent = bytes[p];
    if (exponent === 0x65 || exponent === 0x45) {
      p++;
      const sign = bytes[p];
      if (sign === PLUS || sign === MINUS) p++;
      if (!isDigit(bytes[p])) throw syntaxError();
      while (isDigit(bytes[p])) p++;
    }
    this.pos = p;
    return new NumberNode(this.view, start, p);
  }

  private literal(word: JsonLiteral['lexeme']): JsonLiteral {
    const start = this.pos;
    for (let i = 0; i < word.length; i++) {
      if (this.bytes[start + i] !== word.charCodeAt(i)) throw syntaxError();
    }
    this.pos = start + word.length;
    return { kind: 'literal', start, end: this.pos, lexeme: word };
  }

  private skipWhitespace(): void {
    const bytes = this.bytes;
    let p = this.pos;
    for (;;) {
      const byte = bytes[p];
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) break;
      p++;
    }
    this.pos = p;
  }
}
