import { canonicalString } from './canonical.js';
import {
  type Layout,
  leadingGap,
  lineIndent,
  type PlainJson,
  renderItems,
  renderValue,
} from './format.js';
import type { JsonArray, JsonNode, JsonObject } from './tree.js';

/** Replace text[start, end) with `insert`. Every plan makes at most one. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** Appends `value` as the last element, copying the separator before the current last one. */
export function appendElement(
  text: string,
  layout: Layout,
  array: JsonArray,
  value: PlainJson,
): TextEdit {
  const last = array.elements.at(-1);
  if (last === undefined) {
    const indent = lineIndent(text, array.start);
    const inner = renderItems([renderValue(value, layout, indent + layout.unit)], layout, indent);
    return { start: array.start + 1, end: array.end - 1, insert: inner };
  }
  const rendered = renderValue(value, layout, lineIndent(text, last.start));
  return { start: last.end, end: last.end, insert: `,${leadingGap(text, last.start)}${rendered}` };
}

/** Appends member `key` as the last member, copying the separator before the current last one. */
export function appendMember(
  text: string,
  layout: Layout,
  object: JsonObject,
  key: string,
  value: PlainJson,
): TextEdit {
  const last = object.members.at(-1);
  const member = (indent: string) =>
    canonicalString(key) + layout.colon + renderValue(value, layout, indent);
  if (last === undefined) {
    const indent = lineIndent(text, object.start);
    const inner = renderItems([member(indent + layout.unit)], layout, indent);
    return { start: object.start + 1, end: object.end - 1, insert: inner };
  }
  const rendered = member(lineIndent(text, last.key.start));
  return {
    start: last.value.end,
    end: last.value.end,
    insert: `,${leadingGap(text, last.key.start)}${rendered}`,
  };
}

/**
 * Removes element `index` with exactly one neighbouring separator, so `[a, b]` loses `, b` or
 * `a, ` and a sole element leaves `[]`.
 */
export function removeElement(array: JsonArray, index: number): TextEdit {
  const { elements } = array;
  const element = elements[index] as JsonNode;
  const next = elements[index + 1];
  const previous = elements[index - 1];
  if (next !== undefined) return { start: element.start, end: next.start, insert: '' };
  if (previous !== undefined) return { start: previous.end, end: element.end, insert: '' };
  return { start: array.start + 1, end: array.end - 1, insert: '' };
}

/** Replaces a node in place, rendered for the line it starts on. */
export function replaceNode(
  text: string,
  layout: Layout,
  node: JsonNode,
  value: PlainJson,
): TextEdit {
  return {
    start: node.start,
    end: node.end,
    insert: renderValue(value, layout, lineIndent(text, node.start)),
  };
}
