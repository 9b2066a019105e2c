import { Buffer } from 'node:buffer';
import { writeCanonical } from './canonical.js';
import { Sha256, sha256Hex } from './sha256.js';
import type { JsonNode } from './tree.js';

const encoder = new TextEncoder();

/** Distinct labels keep an entry digest from ever equalling a remainder digest. */
const DOMAIN_LABELS = {
  entry: encoder.encode('cursorhooks/v1/entry\0'),
  remainder: encoder.encode('cursorhooks/v1/remainder\0'),
} as const;

export type DigestDomain = keyof typeof DOMAIN_LABELS;

/**
 * `sha256:` + lowercase hex of the domain label followed by the canonical form of `node`
 * without the nodes in `omit`.
 */
export function digestOf(domain: DigestDomain, node: JsonNode, omit?: ReadonlySet<number>): string {
  let hash: Sha256 | undefined;
  const rest = writeCanonical(
    node,
    scratch,
    (full) => {
      hash ??= new Sha256();
      hash.update(full);
    },
    omit,
    DOMAIN_LABELS[domain],
  );
  return `sha256:${hash === undefined ? sha256Hex(rest) : hash.update(rest).hex()}`;
}

/** The digest of a canonical form already written out as text. */
export function digestOfCanonical(domain: DigestDomain, canonical: string): string {
  return `sha256:${sha256Hex(Buffer.concat([DOMAIN_LABELS[domain], Buffer.from(canonical)]))}`;
}

// Canonical bytes pass through one buffer on their way into the hash: a typed array over 64
// bytes costs a fresh backing store, more than digesting a small entry, and a large one more.
const scratch = new Uint8Array(64 * 1024);
