// Driving the edit functions by path, as HookDocument does by name: shared by the edit, layout
// and model-choice tests.

import {
  appendElement,
  appendMember,
  type ByteEdit,
  removeElement,
  replaceNode,
} from '../../src/json/edit.js';
import { detectLayout } from '../../src/json/format.js';
import { loadJson } from '../../src/json/load.js';
import { spliceBytes } from '../../src/json/splice.js';
import type { JsonArray, JsonNode, JsonObject, JsonTree } from '../../src/json/tree.js';
import { memberValue } from '../../src/json/tree.js';
import { decodeStrict, utf8 } from '../support/common.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = readonly (string | number)[];

/** A hook entry of the form HookDocument writes. */
export const ENTRY: Json = { type: 'command', command: 'x', timeout: 5, failClosed: false };

export type Op =
  | { readonly op: 'appendElement'; readonly path: Path; readonly value: Json }
  | { readonly op: 'appendMember'; readonly path: Path; readonly key: string; readonly value: Json }
  | { readonly op: 'removeElement'; readonly path: Path; readonly index: number }
  | { readonly op: 'replaceNode'; readonly path: Path; readonly value: Json };

export function rootOf(tree: JsonTree): JsonObject {
  if (tree.root.kind !== 'object') throw new Error('root is not an object');
  return tree.root;
}

export function nodeAt(root: JsonNode, path: Path): JsonNode {
  let node: JsonNode | undefined = root;
  for (const step of path) {
    if (node?.kind === 'array' && typeof step === 'number') node = node.elements.at(step);
    else if (node?.kind === 'object' && typeof step === 'string') node = memberValue(node, step);
    else node = undefined;
  }
  if (node === undefined) throw new Error(`no node at ${JSON.stringify(path)}`);
  return node;
}

export const asArray = (node: JsonNode): JsonArray => {
  if (node.kind !== 'array') throw new Error('not an array');
  return node;
};
const asObject = (node: JsonNode): JsonObject => {
  if (node.kind !== 'object') throw new Error('not an object');
  return node;
};

/** The edit the library computes for `op` on the loaded document. */
export function editFor(tree: JsonTree, op: Op): ByteEdit {
  const layout = detectLayout(tree.bytes, rootOf(tree));
  const target = nodeAt(tree.root, op.path);
  switch (op.op) {
    case 'appendElement':
      return appendElement(tree.bytes, layout, asArray(target), op.value);
    case 'appendMember':
      return appendMember(tree.bytes, layout, asObject(target), op.key, op.value);
    case 'removeElement':
      return removeElement(asArray(target), op.index);
    default:
      return replaceNode(tree.bytes, layout, target, op.value);
  }
}

/** `text` after `op`. */
export function edited(text: string, op: Op): string {
  const tree = loadJson(utf8(text));
  return decodeStrict(spliceBytes(tree.bytes, editFor(tree, op)));
}
