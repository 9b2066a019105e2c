// A source's bytes to a tree through the project's own JSON layer (budget pass, strict UTF-8,
// parser), or the one finding that says why there is none, with the line and column only.
import { CursorHooksError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import { loadJson } from '../json/load.js';
import type { JsonNode } from '../json/tree.js';
import type { Finding, FindingCode, HookSource, Severity } from './findings.js';
import { finding } from './inspection.js';

/** What a refusal of the JSON layer means for a reader like Cursor's (a JSON.parse). */
const UNREADABLE: Partial<Record<ErrorReason, readonly [FindingCode, Severity]>> = {
  'json-syntax': ['not-json', 'voids-file'],
  // JSON.parse refuses a leading byte-order mark too.
  'document-bom': ['not-json', 'voids-file'],
  // JSON.parse keeps the last of two equal keys: what was under the first never runs.
  'json-duplicate-key': ['key-duplicated', 'voids-entry'],
  'document-too-large': ['not-checked', 'advice'],
  'document-too-deep': ['not-checked', 'advice'],
  'document-too-many-nodes': ['not-checked', 'advice'],
  'document-not-utf8': ['not-checked', 'advice'],
};

export type Loaded = { readonly root: JsonNode } | { readonly finding: Finding };

export function readDocument(bytes: Uint8Array, source: HookSource): Loaded {
  if (bytes.length === 0) return { finding: finding('empty-file', 'advice', source) };
  try {
    return { root: loadJson(bytes).root };
  } catch (err) {
    const mapped = err instanceof CursorHooksError ? UNREADABLE[err.reason] : undefined;
    if (mapped === undefined) throw err;
    const [code, severity] = mapped;
    const at = (err as CursorHooksError).at;
    const where = at === undefined ? {} : { line: at.line, column: at.column };
    return { finding: finding(code, severity, source, where) };
  }
}
