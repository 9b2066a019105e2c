// Fatal: bytes that are not UTF-8 are a bug here, not something to patch with U+FFFD.
// `ignoreBOM` keeps a leading U+FEFF in the text, so the text is exactly the bytes.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes the planner wrote (always strict UTF-8) as the exactly equivalent text. */
export function exactText(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}
