import { bufferOf, isJsonWhitespace, LF, SPACE, TAB } from './bytes.js';
import { Tag, type Tape } from './tree.js';

// Reading how the document writes its containers, so inserted text can copy a neighbour. All
// positions are tape indices; nothing here builds node views or walks more than one path.

/** How one container writes its items: the facts new text copies from it. */
export interface Shape {
  /** Items each on a line of their own (the gap after the opening bracket holds a line end). */
  readonly lines: boolean;
  /** With `lines`: how much deeper than the container's line its items are indented. */
  readonly step: string;
  /** Without `lines`: the gaps after the opening bracket, after each comma, before the close. */
  readonly open: string;
  readonly comma: string;
  readonly close: string;
  /** Objects: from the end of a key to its value, the colon included, e.g. `": "`. */
  readonly colon: string;
}

/** Separators are ASCII (whitespace and punctuation), so one byte is one character. */
export function ascii(bytes: Uint8Array, start: number, end: number): string {
  return bufferOf(bytes).toString('latin1', start, end);
}

/** Where the line holding `offset` begins. */
function lineStartOf(bytes: Uint8Array, offset: number): number {
  return offset === 0 ? 0 : bufferOf(bytes).lastIndexOf(LF, offset - 1) + 1;
}

/** The spaces and tabs that open the line holding `offset`, up to `offset`. */
export function lineIndent(bytes: Uint8Array, offset: number): string {
  const lineStart = lineStartOf(bytes, offset);
  let end = lineStart;
  while (end < offset && (bytes[end] === SPACE || bytes[end] === TAB)) end++;
  return ascii(bytes, lineStart, end);
}

/** The whitespace directly before `offset` (after the preceding `[`, `{`, `,` or `:`). */
export function leadingGap(bytes: Uint8Array, offset: number): string {
  let start = offset;
  while (start > 0 && isJsonWhitespace(bytes[start - 1] as number)) start--;
  return ascii(bytes, start, offset);
}

/** The indentation after the last line end of a gap that holds one. */
export function indentAfterBreak(gap: string): string {
  return gap.slice(gap.lastIndexOf('\n') + 1);
}

/** Whether the container at `index` holds at least one item. */
export function hasItems(tape: Tape, index: number): boolean {
  return tape.next(index) > index + 1;
}

function isContainer(tape: Tape, index: number): boolean {
  const tag = tape.tag(index);
  return tag === Tag.Object || tag === Tag.Array;
}

/** Whether a non-empty container puts its items on lines of their own. */
export function writesLines(tape: Tape, index: number): boolean {
  const { bytes } = tape;
  for (let p = tape.start(index) + 1; isJsonWhitespace(bytes[p] as number); p++) {
    if (bytes[p] === LF) return true;
  }
  return false;
}

/** An empty container or one-line items: a compact island says nothing about the file. */
function isIsland(tape: Tape, index: number): boolean {
  return isContainer(tape, index) && !(hasItems(tape, index) && writesLines(tape, index));
}

/**
 * The colon of the last member whose value is not an island, so `"hooks":{}` inside a file
 * written with `": "` does not decide; an object of islands only gives its last member's.
 */
function colonOf(tape: Tape, index: number): string {
  let chosen = -1;
  let fallback = -1;
  for (let key = index + 1; key < tape.next(index); key = tape.next(key + 1)) {
    fallback = key;
    if (!isIsland(tape, key + 1)) chosen = key;
  }
  const key = chosen < 0 ? fallback : chosen;
  return ascii(tape.bytes, tape.end(key), tape.start(key + 1));
}

/** The whitespace after the first colon in a colon gap. */
function afterColon(colon: string): string {
  return colon.slice(colon.indexOf(':') + 1);
}

/**
 * The gap after a comma of a one-line container with a single item, which shows none: the
 * space after its colon (`{ "a": 1 }` gives `", "`), or for an array its opening gap, else
 * the space after its element's colon (`[{"a": 1}]` gives `", "`).
 */
function commaOfSingle(tape: Tape, index: number, open: string, colon: string): string {
  if (tape.tag(index) === Tag.Object) return afterColon(colon);
  const element = index + 1;
  if (open !== '' || tape.tag(element) !== Tag.Object || !hasItems(tape, element)) return open;
  return afterColon(ascii(tape.bytes, tape.end(element + 1), tape.start(element + 2)));
}

/** The shape of the non-empty container at `index`. */
export function shapeOf(tape: Tape, index: number): Shape {
  const { bytes } = tape;
  const start = tape.start(index);
  const object = tape.tag(index) === Tag.Object;
  const colon = object ? colonOf(tape, index) : '';
  let end = start + 1;
  let lastBreak = -1;
  for (; isJsonWhitespace(bytes[end] as number); end++) if (bytes[end] === LF) lastBreak = end;
  if (lastBreak >= 0) {
    const step = stepOf(bytes, start, lastBreak + 1, end);
    return { lines: true, step, open: '', comma: '', close: '', colon };
  }
  const open = ascii(bytes, start + 1, end);
  const second = tape.next(object ? index + 2 : index + 1);
  const comma =
    second < tape.next(index)
      ? leadingGap(bytes, tape.start(second))
      : commaOfSingle(tape, index, open, colon);
  const close = leadingGap(bytes, tape.end(index) - 1);
  return { lines: false, step: '', open, comma, close, colon };
}

/**
 * The items' indentation [from, to) past that of the line holding the opening bracket at
 * `start`; all of it when it does not begin with that line's (an outdented or mixed indent).
 * The bracket ends the line's indent and the first item ends theirs, so neither walk needs a
 * bound of its own.
 */
function stepOf(bytes: Uint8Array, start: number, from: number, to: number): string {
  let own = lineStartOf(bytes, start);
  let p = from;
  for (; bytes[own] === SPACE || bytes[own] === TAB; own++, p++) {
    if (bytes[own] !== bytes[p]) return ascii(bytes, from, to);
  }
  return ascii(bytes, p, to);
}

/** The value children of a container: elements, or member values (keys skipped). */
function firstChild(tape: Tape, index: number): number {
  return tape.tag(index) === Tag.Object ? index + 2 : index + 1;
}

function nextChild(tape: Tape, parent: number, child: number): number {
  return tape.tag(parent) === Tag.Object ? tape.next(child) + 1 : tape.next(child);
}

/** The last non-empty child of `index` whose kind is `tag`, or -1. */
export function lastChildOfKind(tape: Tape, index: number, tag: Tag): number {
  let found = -1;
  const end = tape.next(index);
  for (let child = firstChild(tape, index); child < end; child = nextChild(tape, index, child)) {
    if (tape.tag(child) === tag && hasItems(tape, child)) found = child;
  }
  return found;
}

/** The containers from the root (the tape's first node) down to `target`, both included. */
function pathTo(tape: Tape, target: number): number[] {
  const path = [0];
  let node = 0;
  while (node !== target) {
    let child = node + 1;
    while (tape.next(child) <= target) child = tape.next(child);
    path.push(child);
    node = child;
  }
  return path;
}

/** The other children of `parent` of the same kind as `child`, nearest first. */
function siblingsOf(tape: Tape, parent: number, child: number): number[] {
  const children: number[] = [];
  const end = tape.next(parent);
  for (let c = firstChild(tape, parent); c < end; c = nextChild(tape, parent, c)) children.push(c);
  const at = children.indexOf(child);
  const near: number[] = [];
  for (let d = 1; d < children.length; d++) {
    for (const c of [children[at - d], children[at + d]]) {
      if (c !== undefined && tape.tag(c) === tape.tag(child)) near.push(c);
    }
  }
  return near;
}

/** The container holding `child`, which is not the root. */
export function parentOf(tape: Tape, child: number): number {
  const path = pathTo(tape, child);
  return path[path.length - 2] as number;
}

/**
 * The node a new `tag` child of `container` copies: the container's last such child, else
 * the last such child of its nearest sibling of the same kind (another event array for an
 * entry, another event for a new one), or -1. The root's members are unrelated settings
 * (`version`, `$schema`, an editor's `{ "tabSize": 4 }`), so neither the root nor its members
 * copy from each other: new text there takes the file's form.
 */
export function modelFor(tape: Tape, container: number, tag: Tag): number {
  if (container === 0) return -1;
  const own = lastChildOfKind(tape, container, tag);
  if (own >= 0) return own;
  const parent = parentOf(tape, container);
  if (parent === 0) return -1;
  for (const sibling of siblingsOf(tape, parent, container)) {
    const found = lastChildOfKind(tape, sibling, tag);
    if (found >= 0) return found;
  }
  return -1;
}

/** The nearest non-empty sibling of the same kind, whose shape an empty container takes. */
export function twinOf(tape: Tape, container: number): number {
  if (container === 0) return -1;
  const parent = parentOf(tape, container);
  if (parent === 0) return -1;
  return siblingsOf(tape, parent, container).find((s) => hasItems(tape, s)) ?? -1;
}

/**
 * The step of the nearest container at or above `index` that writes lines: what a new
 * container with nothing to copy steps by. Undefined when every one is on one line.
 */
export function nearestStep(tape: Tape, index: number): string | undefined {
  const path = pathTo(tape, index);
  for (let i = path.length - 1; i >= 0; i--) {
    const node = path[i] as number;
    if (isContainer(tape, node) && hasItems(tape, node) && writesLines(tape, node)) {
      return shapeOf(tape, node).step;
    }
  }
  return undefined;
}
