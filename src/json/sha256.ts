// SHA-256 for the planner's digests, on node:crypto. The CLI bundle swaps in sha256-portable.ts,
// which has this interface, so that a call does not load node:crypto (scripts/build-cli.mjs).
import * as crypto from 'node:crypto';

/** An incremental SHA-256: `update` any number of times, then `hex` once. */
export class Sha256 {
  private readonly hash = crypto.createHash('sha256');

  update(data: Uint8Array): this {
    this.hash.update(data);
    return this;
  }

  /** The digest as 64 lowercase hex digits; the hash takes no more input after it. */
  hex(): string {
    return this.hash.digest('hex');
  }
}

// One-shot hashing (Node 20.12+) costs a third of a Hash object for the small entry digests.
export const sha256Hex: (data: Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => new Sha256().update(data).hex();
