import { UnsupportedError } from '../errors/errors.js';
import { MAX_DEPTH } from '../limits.js';
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
const BACKSLASH = 0x5c;
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
 * Strict RFC 8259 text to tree. Callers run the budget pass first; the depth check here only
 * guarantees the recursion stays bounded whatever the caller did.
 */
export function parseJsonText(text: string): JsonNode {
  return new Parser(text).document();
}

function syntaxError(): UnsupportedError {
  return new UnsupportedError('json-syntax');
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

function simpleEscape(marker: string): string {
  const decoded = SIMPLE_ESCAPES.get(marker);
  if (decoded === undefined) throw syntaxError();
  return decoded;
}

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): JsonNode {
    this.skipWhitespace();
    const root = this.value(1);
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw syntaxError();
    return root;
  }

  private value(depth: number): JsonNode {
    switch (this.text.charCodeAt(this.pos)) {
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
    const text = this.text;
    const start = this.pos++;
    const members: JsonMember[] = [];
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_OBJECT) {
      this.pos++;
      return { kind: 'object', start, end: this.pos, members };
    }
    const keys = new Set<string>();
    for (;;) {
      if (text.charCodeAt(this.pos) !== QUOTE) throw syntaxError();
      const key = this.string();
      // Keys are compared as decoded UTF-16, so "\u0076ersion" repeats "version".
      if (keys.has(key.value)) throw new UnsupportedError('json-duplicate-key');
      keys.add(key.value);
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== COLON) throw syntaxError();
      this.pos++;
      this.skipWhitespace();
      members.push({ key, value: this.value(depth + 1) });
      this.skipWhitespace();
      const next = text.charCodeAt(this.pos++);
      if (next === CLOSE_OBJECT) break;
      if (next !== COMMA) throw syntaxError();
      this.skipWhitespace();
    }
    return { kind: 'object', start, end: this.pos, members };
  }

  private array(depth: number): JsonArray {
    if (depth > MAX_DEPTH) throw new UnsupportedError('document-too-deep');
    const text = this.text;
    const start = this.pos++;
    const elements: JsonNode[] = [];
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === CLOSE_ARRAY) {
      this.pos++;
      return { kind: 'array', start, end: this.pos, elements };
    }
    for (;;) {
      elements.push(this.value(depth + 1));
      this.skipWhitespace();
      const next = text.charCodeAt(this.pos++);
      if (next === CLOSE_ARRAY) break;
      if (next !== COMMA) throw syntaxError();
      this.skipWhitespace();
    }
    return { kind: 'array', start, end: this.pos, elements };
  }

  private string(): JsonString {
    const text = this.text;
    const start = this.pos;
    let p = start + 1;
    let chunkStart = p;
    let decoded = '';
    for (;;) {
      const code = text.charCodeAt(p);
      if (code === QUOTE) break;
      if (code === BACKSLASH) {
        decoded += text.slice(chunkStart, p);
        const unicode = text.charCodeAt(p + 1) === 0x75;
        decoded += unicode ? this.unicodeEscape(p + 2) : simpleEscape(text.charAt(p + 1));
        p += unicode ? 6 : 2;
        chunkStart = p;
      } else if (code >= 0x20) {
        p++;
      } else {
        // A raw control character, or the end of the text (NaN) inside a string.
        throw syntaxError();
      }
    }
    const value =
      chunkStart === start + 1 ? text.slice(chunkStart, p) : decoded + text.slice(chunkStart, p);
    this.pos = p + 1;
    return { kind: 'string', start, end: this.pos, value };
  }

  /** The code unit spelled by the four hex digits at `p`; `\ud800` stays a lone surrogate. */
  private unicodeEscape(p: number): string {
    let unit = 0;
    for (let i = p; i < p + 4; i++) {
      const digit = hexValue(this.text.charCodeAt(i));
      if (digit < 0) throw syntaxError();
      unit = unit * 16 + digit;
    }
    return String.fromCharCode(unit);
  }

  private number(): JsonNumber {
    const text = this.text;
    const start = this.pos;
    let p = start;
    if (text.charCodeAt(p) === MINUS) p++;
    const first = text.charCodeAt(p);
    if (first === ZERO) {
      p++;
    } else if (first > ZERO && first <= NINE) {
      p++;
      while (isDigit(text.charCodeAt(p))) p++;
    } else {
      throw syntaxError();
    }
    if (text.charCodeAt(p) === DOT) {
      p++;
      if (!isDigit(text.charCodeAt(p))) throw syntaxError();
      while (isDigit(text.charCodeAt(p))) p++;
    }
    const exponent = text.charCodeAt(p);
    if (exponent === 0x65 || exponent === 0x45) {
      p++;
      const sign = text.charCodeAt(p);
      if (sign === PLUS || sign === MINUS) p++;
      if (!isDigit(text.charCodeAt(p))) throw syntaxError();
      while (isDigit(text.charCodeAt(p))) p++;
    }
    this.pos = p;
    return { kind: 'number', start, end: p, lexeme: text.slice(start, p) };
  }

  private literal(word: JsonLiteral['lexeme']): JsonLiteral {
    if (!this.text.startsWith(word, this.pos)) throw syntaxError();
    const start = this.pos;
    this.pos += word.length;
    return { kind: 'literal', start, end: this.pos, lexeme: word };
  }

  private skipWhitespace(): void {
    const text = this.text;
    let p = this.pos;
    for (;;) {
      const code = text.charCodeAt(p);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      p++;
    }
    this.pos = p;
  }
}
