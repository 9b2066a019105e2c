import { Buffer } from 'node:buffer';
import { CR, isJsonWhitespace, LF, SPACE, TAB } from './bytes.js';
import { canonicalString } from './canonical.js';
import type { JsonObject } from './tree.js';

/** A value this library writes: only plain JSON data, never anything taken from the document. */
export type PlainJson =
  | string
  | number
  | boolean
  | null
  | readonly PlainJson[]
  | { readonly [key: string]: PlainJson };

/**
 * How the document writes itself, read off its root so new text looks like the old. For a
 * document that is exactly `JSON.stringify(v, null, indent)` this reproduces that function's
 * output for inserted values.
 */
export interface Layout {
  /** Line end: CRLF when the document's first line end is CRLF. */
  readonly eol: string;
  /** One level of indentation; empty for a single-line document. */
  readonly unit: string;
  /** Between a key and its value, e.g. `": "` or `":"`. */
  readonly colon: string;
  /** Between single-line siblings, e.g. `","` or `", "`. */
  readonly comma: string;
}

/** The layout of a new file: `JSON.stringify(doc, null, 2)`. */
export const NEW_FILE_LAYOUT: Layout = {
  eol: '\n',
  unit: '  ',
  colon: ': ',
  comma: ',',
};

export function detectLayout(bytes: Uint8Array, root: JsonObject): Layout {
  const newline = bytes.indexOf(LF);
  const eol = newline > 0 && bytes[newline - 1] === CR ? '\r\n' : '\n';
  const [first, second] = root.members;
  if (first === undefined) return { eol, unit: '', colon: ':', comma: ',' };
  const lead = ascii(bytes, root.start + 1, first.key.start);
  const lastBreak = lead.lastIndexOf('\n');
  const rootIndent = lineIndent(bytes, root.start);
  const firstIndent = lastBreak < 0 ? '' : lead.slice(lastBreak + 1);
  const unit = firstIndent.startsWith(rootIndent)
    ? firstIndent.slice(rootIndent.length)
    : firstIndent;
  const colonGap = ascii(bytes, first.key.end, first.value.start);
  const colon = colonGap.includes('\n') ? ': ' : colonGap;
  const commaGap = second === undefined ? ',' : ascii(bytes, first.value.end, second.key.start);
  const comma = unit === '' && !commaGap.includes('\n') ? commaGap : ',';
  return { eol, unit, colon, comma };
}

/**
 * Separators are ASCII (whitespace and punctuation). They are usually a few bytes long, which
 * is quicker to build by hand than through a Buffer view; long ones take the native path.
 */
function ascii(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 64) {
    return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  }
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] as number);
  return text;
}

/** The spaces and tabs that open the line holding `offset`, up to `offset`. */
export function lineIndent(bytes: Uint8Array, offset: number): string {
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(LF, offset - 1) + 1;
  let end = lineStart;
  while (end < offset && (bytes[end] === SPACE || bytes[end] === TAB)) end++;
  return ascii(bytes, lineStart, end);
}

/** The whitespace directly before `offset` (after the preceding `[`, `{` or `,`). */
export function leadingGap(bytes: Uint8Array, offset: number): string {
  let start = offset;
  while (start > 0 && isJsonWhitespace(bytes[start - 1] as number)) start--;
  return ascii(bytes, start, offset);
}

/**
 * Renders `value` as it would appear on a line indented by `indent`: nested lines are
 * indented one `unit` deeper each, exactly as JSON.stringify does (without its 10-character
 * cap on the indent string).
 */
export function renderValue(value: PlainJson, layout: Layout, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const items = isArray(value)
    ? value.map((item) => renderValue(item, layout, indent + layout.unit))
    : Object.entries(value).map(
        ([key, item]) =>
          canonicalString(key) + layout.colon + renderValue(item, layout, indent + layout.unit),
      );
  const [open, close] = isArray(value) ? ['[', ']'] : ['{', '}'];
  return open + renderItems(items, layout, indent) + close;
}

/**
 * The text between an opening and closing bracket holding already rendered `items`, for a
 * container whose line is indented by `indent`.
 */
export function renderItems(items: readonly string[], layout: Layout, indent: string): string {
  if (items.length === 0) return '';
  if (layout.unit === '') return items.join(layout.comma);
  const inner = layout.eol + indent + layout.unit;
  return inner + items.join(`,${inner}`) + layout.eol + indent;
}

function isArray(value: PlainJson): value is readonly PlainJson[] {
  return Array.isArray(value);
}

/** Nodes as the limits count them: every container, every object key, every scalar. */
export function countNodes(value: PlainJson): number {
  if (value === null || typeof value !== 'object') return 1;
  const children = isArray(value)
    ? value.map(countNodes)
    : Object.values(value).map((item) => 1 + countNodes(item));
  return children.reduce((sum, count) => sum + count, 1);
}
