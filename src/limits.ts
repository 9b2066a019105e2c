// Resource limits shared by the JSON layer (documents in and out) and the shell contracts (argv),
// and the size of a lock record the host kit will read.

export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
/** Container nesting, with the root container at depth 1; scalars add none. */
export const MAX_DEPTH = 64;
/** Every container, every object key and every scalar counts as one node. */
export const MAX_NODES = 65536;
export const MAX_TOKEN_BYTES = 4096;
export const MAX_ARGV_BYTES = 16384;
export const MAX_ARGS = 32;
/** A lock record is one short JSON line; anything longer beside a target is not ours. */
export const MAX_LOCK_RECORD_BYTES = 4096;
