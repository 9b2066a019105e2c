import { createHash } from 'node:crypto';
import { canonicalize } from './canonical.js';
import type { JsonNode } from './tree.js';

/** Distinct labels keep an entry digest from ever equalling a remainder digest. */
const DOMAIN_LABELS = {
  entry: 'cursorhooks/v1/entry\0',
  remainder: 'cursorhooks/v1/remainder\0',
} as const;

export type DigestDomain = keyof typeof DOMAIN_LABELS;

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * `sha256:` + lowercase hex of the domain label followed by the canonical form of `node`,
 * a node of the document parsed from `source`, without the nodes in `omit`.
 */
export function digestOf(
  domain: DigestDomain,
  source: Uint8Array,
  node: JsonNode,
  omit?: ReadonlySet<number>,
): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN_LABELS[domain], 'utf8');
  hash.update(canonicalize(source, node, omit));
  return `sha256:${hash.digest('hex')}`;
}
