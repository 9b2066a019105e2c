// The value tree. Spans are byte offsets into the source document; the bytes between sibling
// spans are the exact separators (whitespace and commas) around each node, so every edit is a
// splice and everything outside it keeps its bytes.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface JsonObject extends Span {
  readonly kind: 'object';
  readonly members: readonly JsonMember[];
}

export interface JsonMember {
  readonly key: JsonString;
  readonly value: JsonNode;
}

export interface JsonArray extends Span {
  readonly kind: 'array';
  readonly elements: readonly JsonNode[];
}

/** The raw lexeme is the span; `value` is the decoded UTF-16 content. */
export interface JsonString extends Span {
  readonly kind: 'string';
  /** The lexeme holds at least one backslash escape. */
  readonly escaped: boolean;
  readonly value: string;
}

/** Numbers are only ever their lexeme: never a JS number, so nothing is rounded. */
export interface JsonNumber extends Span {
  readonly kind: 'number';
  readonly lexeme: string;
}

export interface JsonLiteral extends Span {
  readonly kind: 'literal';
  readonly lexeme: 'true' | 'false' | 'null';
}

export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;

/** A parsed document: its source bytes and root. */
export interface JsonTree {
  readonly bytes: Uint8Array;
  readonly root: JsonNode;
}

/** The value of member `key` (compared by decoded code units), if present. */
export function memberValue(object: JsonObject, key: string): JsonNode | undefined {
  for (const member of object.members) {
    if (member.key.value === key) return member.value;
  }
  return undefined;
}
