import { canonicalString } from './canonical.js';
import {
  countNodes,
  type Layout,
  leadingGap,
  lineIndent,
  type PlainJson,
  renderItems,
  renderValue,
} from './format.js';
import type { JsonArray, JsonNode, JsonObject } from './tree.js';

/** Replace bytes[start, end) with `insert`. Every plan makes at most one. */
export interface ByteEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
  /** How the document's node count changes, so output limits need no second scan. */
  readonly nodes: number;
}

/** Appends `value` as the last element, copying the separator before the current last one. */
export function appendElement(
  bytes: Uint8Array,
  layout: Layout,
  array: JsonArray,
  value: PlainJson,
): ByteEdit {
  const last = array.elements.at(-1);
  if (last === undefined) {
    const indent = lineIndent(bytes, array.start);
    const inner = renderItems([renderValue(value, layout, indent + layout.unit)], layout, indent);
    return { start: array.start + 1, end: array.end - 1, insert: inner, nodes: countNodes(value) };
  }
  const rendered = renderValue(value, layout, lineIndent(bytes, last.start));
  return {
    start: last.end,
    end: last.end,
    insert: `,${leadingGap(bytes, last.start)}${rendered}`,
    nodes: countNodes(value),
  };
}

/** Appends member `key` as the last member, copying the separator before the current last one. */
export function appendMember(
  bytes: Uint8Array,
  layout: Layout,
  object: JsonObject,
  key: string,
  value: PlainJson,
): ByteEdit {
  const last = object.members.at(-1);
  const member = (indent: string) =>
    canonicalString(key) + layout.colon + renderValue(value, layout, indent);
  // The key is a node too.
  const nodes = 1 + countNodes(value);
  if (last === undefined) {
    const indent = lineIndent(bytes, object.start);
    const inner = renderItems([member(indent + layout.unit)], layout, indent);
    return { start: object.start + 1, end: object.end - 1, insert: inner, nodes };
  }
  const rendered = member(lineIndent(bytes, last.key.start));
  return {
    start: last.value.end,
    end: last.value.end,
    insert: `,${leadingGap(bytes, last.key.start)}${rendered}`,
    nodes,
  };
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

/** Replaces a node in place, rendered for the line it starts on. */
export function replaceNode(
  bytes: Uint8Array,
  layout: Layout,
  node: JsonNode,
  value: PlainJson,
): ByteEdit {
  return {
    start: node.start,
    end: node.end,
    insert: renderValue(value, layout, lineIndent(bytes, node.start)),
    nodes: countNodes(value) - subtreeSize(node),
  };
}

function subtreeSize(node: JsonNode): number {
  return node.tape.subtreeSize(node.index);
}
