// What status and the write commands say about ACLs and extended attributes: the kit's one
// metadata decision as JSON (`checked` only for what the writer really checks) and as text.
import type { MetadataCheck } from '../../node/write/metadata.js';

export interface MetadataJSON {
  readonly checked: boolean;
  readonly why: string | null;
  /** What a write replacing an existing file does: preserve, refuse, accept-loss, unchecked. */
  readonly writes: MetadataCheck['writes'];
}

export function metadataJSON(check: MetadataCheck): MetadataJSON {
  return check.performed
    ? { checked: true, why: null, writes: check.writes }
    : { checked: false, why: check.why, writes: check.writes };
}

const LINES: Readonly<Record<MetadataCheck['writes'], string>> = {
  preserve: 'a write keeps the extended attributes but cannot prove it keeps the ACLs',
  refuse:
    'the optional @napi-rs/xattr module does not load, so a write that replaces an existing file refuses (metadata-not-preserved): reinstall with optional dependencies, or pass --accept-metadata-loss to replace it without them',
  'accept-loss':
    'the optional @napi-rs/xattr module does not load; loss accepted (--accept-metadata-loss): a write replaces existing files without their ACLs and extended attributes',
  unchecked: 'a write cannot prove it keeps them',
};

/** The status line, none when the writer checks everything. */
export function metadataStatusLine(metadata: MetadataJSON): string | undefined {
  if (metadata.checked) return undefined;
  return `ACLs and extended attributes: not checked (${metadata.why}): ${LINES[metadata.writes]}`;
}

/** After a write: said only when the loss was accepted and a file was written. */
export function metadataWriteLine(metadata: MetadataJSON, wrote: boolean): string | undefined {
  if (metadata.writes !== 'accept-loss' || !wrote) return undefined;
  return 'ACLs and extended attributes: loss accepted (--accept-metadata-loss): the optional @napi-rs/xattr module does not load, so any the replaced files had are gone';
}
