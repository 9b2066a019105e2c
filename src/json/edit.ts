import { canonicalString } from './canonical.js';
import { containerTag, countNodes, type Layout, type PlainJson, Writer } from './format.js';
import {
  hasItems,
  indentAfterBreak,
  leadingGap,
  lineIndent,
  modelFor,
  parentOf,
  shapeOf,
  twinOf,
} from './layout.js';
import { type JsonArray, type JsonNode, type JsonObject, Tag, type Tape } from './tree.js';

/** Replace bytes[start, end) with `insert`. Every plan makes at most one. */
export interface ByteEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
  /** How the document's node count changes, so output limits need no second scan. */
  readonly nodes: number;
}

/**
 * Appends `value` as the last element, shaped like the array's last element of its kind (else
 * the nearest sibling array's), after the same separator as the current last one.
 */
export function appendElement(
  bytes: Uint8Array,
  layout: Layout,
  array: JsonArray,
  value: PlainJson,
): ByteEdit {
  return appendItem(bytes, layout, array, undefined, value);
}

/** Appends member `key` as the last member, shaped like its neighbours. */
export function appendMember(
  bytes: Uint8Array,
  layout: Layout,
  object: JsonObject,
  key: string,
  value: PlainJson,
): ByteEdit {
  return appendItem(bytes, layout, object, key, value);
}

function appendItem(
  bytes: Uint8Array,
  layout: Layout,
  container: JsonArray | JsonObject,
  key: string | undefined,
  value: PlainJson,
): ByteEdit {
  const { tape, index } = container;
  const writer = new Writer(layout, tape, index);
  const tag = containerTag(value);
  const model = tag === undefined ? -1 : modelFor(tape, index, tag);
  // A member's key is a node too.
  const nodes = countNodes(value) + (key === undefined ? 0 : 1);
  const label = (colon: string) => (key === undefined ? '' : canonicalString(key) + colon);
  if (!hasItems(tape, index)) {
    // Empty: the interior takes the shape of a sibling like it, else the default.
    const shape = writer.shapeFrom(twinOf(tape, index));
    const indent = lineIndent(bytes, container.start);
    const inner = shape.lines ? indent + shape.step : indent;
    const item = label(shape.colon) + writer.render(value, model, inner);
    const insert = writer.join([item], shape, indent);
    return { start: container.start + 1, end: container.end - 1, insert, nodes };
  }
  const last = lastItem(tape, index);
  const shape = shapeOf(tape, index);
  // Before a sole item on the bracket's line sits the opening gap, no comma's: use the implied one.
  const gap = !shape.lines && last.single ? shape.comma : leadingGap(bytes, last.start);
  const indent = gap.includes('\n') ? indentAfterBreak(gap) : lineIndent(bytes, last.end);
  const insert = `,${gap}${label(shape.colon)}${writer.render(value, model, indent)}`;
  return { start: last.end, end: last.end, insert, nodes };
}

/** Where the last item of a non-empty container starts (its key, for members) and ends. */
function lastItem(tape: Tape, index: number): { start: number; end: number; single: boolean } {
  const object = tape.tag(index) === Tag.Object;
  const end = tape.next(index);
  let item = index + 1;
  let single = true;
  for (let next = tape.next(object ? item + 1 : item); next < end; ) {
    item = next;
    single = false;
    next = tape.next(object ? item + 1 : item);
  }
  return { start: tape.start(item), end: tape.end(object ? item + 1 : item), single };
}

/**
 * Removes element `index` with exactly one neighbouring separator, so `[a, b]` loses `, b` or
 * `a, ` and a sole element leaves `[]`.
 */
export function removeElement(array: JsonArray, index: number): ByteEdit {
  const { elements } = array;
  const element = elements[index] as JsonNode;
  const next = elements[index + 1];
  const previous = elements[index - 1];
  const nodes = -subtreeSize(element);
  if (next !== undefined) return { start: element.start, end: next.start, insert: '', nodes };
  if (previous !== undefined) return { start: previous.end, end: element.end, insert: '', nodes };
  return { start: array.start + 1, end: array.end - 1, insert: '', nodes };
}

/**
 * Replaces a node in place, rendered for the line it starts on in the shape of the node it
 * replaces (else of its siblings), so an updated entry keeps the form of the one it was.
 */
export function replaceNode(
  bytes: Uint8Array,
  layout: Layout,
  node: JsonNode,
  value: PlainJson,
): ByteEdit {
  const { tape, index } = node;
  const tag = containerTag(value);
  const model = tag === undefined ? -1 : replacementModel(tape, index, tag);
  return {
    start: node.start,
    end: node.end,
    insert: new Writer(layout, tape, index).render(value, model, lineIndent(bytes, node.start)),
    nodes: countNodes(value) - subtreeSize(node),
  };
}

/** What a `tag` container put at `index` copies: the node it replaces, else a new sibling's model. */
function replacementModel(tape: Tape, index: number, tag: Tag): number {
  if (tape.tag(index) === tag && hasItems(tape, index)) return index;
  return index === 0 ? -1 : modelFor(tape, parentOf(tape, index), tag);
}

function subtreeSize(node: JsonNode): number {
  return node.tape.subtreeSize(node.index);
}
