import type { JsonNode, JsonObject } from './tree.js';

/**
 * The canonical form (SPEC §5): no whitespace, members sorted by key code units, arrays in
 * order, numbers and literals as their lexeme, strings re-escaped canonically. Whitespace and
 * equivalent escapes therefore never change it; a changed number lexeme always does.
 */
export function canonicalize(node: JsonNode): string {
  const parts: string[] = [];
  write(node, parts);
  return parts.join('');
}

function write(node: JsonNode, parts: string[]): void {
  switch (node.kind) {
    case 'object':
      writeObject(node, parts);
      return;
    case 'array':
      parts.push('[');
      node.elements.forEach((element, index) => {
        if (index > 0) parts.push(',');
        write(element, parts);
      });
      parts.push(']');
      return;
    case 'string':
      parts.push(canonicalString(node.value));
      return;
    default:
      parts.push(node.lexeme);
  }
}

function writeObject(node: JsonObject, parts: string[]): void {
  // Keys are unique (the parser refuses duplicates), so the order is total.
  const members = [...node.members].sort((a, b) => (a.key.value < b.key.value ? -1 : 1));
  parts.push('{');
  members.forEach((member, index) => {
    if (index > 0) parts.push(',');
    parts.push(canonicalString(member.key.value), ':');
    write(member.value, parts);
  });
  parts.push('}');
}

/**
 * Well-formed JSON.stringify is exactly the canonical string escaping: `\"`, `\\`, the five
 * short control escapes, other code units below 0x20 and every unpaired surrogate as
 * lowercase `\uXXXX`, everything else literal.
 */
export function canonicalString(value: string): string {
  return JSON.stringify(value);
}
