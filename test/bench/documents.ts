// The benchmark documents: deterministic builders, so every run measures the same bytes, and
// pre-checks that each document is what its rows claim (within or over which limit, valid or
// not), so a row never silently times the wrong path.

import { Buffer } from 'node:buffer';
import { scanBudget } from '../../src/json/budget.js';
import { MAX_DOCUMENT_BYTES, MAX_NODES } from '../../src/limits.js';

const MiB = 1024 * 1024;

const WORDS = [
  'agent',
  'hooks',
  'cursor',
  'stop',
  'observer',
  'räksmörgås',
  'naïve',
  '中文',
  'проверка',
  'ünïcode',
  'build',
  'release',
  'deploy',
];

/** Cursor's hook events first, then made-up ones, as a busy user file might hold. */
const EVENTS = [
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'beforeSubmitPrompt',
  'afterFileEdit',
  'afterShellExecution',
  'afterMCPExecution',
  'afterAgentResponse',
  'afterAgentThought',
  'stop',
  ...Array.from({ length: 30 }, (_, i) => `custom${i}`),
];

/** A deterministic pseudo-random source. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

interface Entry {
  type: string;
  command: string;
  args: string[];
  timeout: number;
  failClosed: boolean;
}

const nodesOfEntry = (e: Entry) => 1 + 5 * 2 + e.args.length;

interface HooksDocumentOptions {
  readonly maxBytes: number;
  readonly maxNodes: number;
}

/**
 * A realistic hooks document: foreign entries (`type`, `command`, 16–23 `args`, `timeout`,
 * `failClosed`; strings of ~50–60 bytes of path-like words, some non-ASCII) spread over 40
 * events, one of them `stop`, at indent 4. Entries are added until the next one would break
 * either bound; at 4 MiB both bounds fill together (~4 MiB, ~65.5k nodes), and a smaller byte
 * bound gives the same density, which is what the linearity rows need.
 */
function hooksDocument({ maxBytes, maxNodes }: HooksDocumentOptions): Uint8Array {
  const random = lcg(0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = (target: number): string => {
    let out = '/opt';
    while (Buffer.byteLength(out, 'utf8') < target) out += `/${pick(WORDS)}`;
    return out;
  };
  const entry = (): Entry => ({
    type: 'command',
    command: text(45 + Math.floor(random() * 25)),
    args: Array.from({ length: 16 + Math.floor(random() * 8) }, () =>
      text(40 + Math.floor(random() * 30)),
    ),
    timeout: 5,
    failClosed: random() < 0.5,
  });
  const hooks: Record<string, Entry[]> = {};
  for (const name of EVENTS) hooks[name] = [];
  let nodes = 1 + 2 + 2 + 2 * EVENTS.length; // root, version + 1, hooks key + object, events
  let bytes = 0;
  for (let i = 0; ; i++) {
    const e = entry();
    const size = Buffer.byteLength(JSON.stringify(e, null, 4), 'utf8') * 1.2;
    if (nodes + nodesOfEntry(e) > maxNodes || bytes + size > maxBytes * 0.97) break;
    hooks[EVENTS[i % EVENTS.length] as string]?.push(e);
    nodes += nodesOfEntry(e);
    bytes += size;
  }
  return withinBudget(utf8(`${JSON.stringify({ version: 1, hooks }, null, 4)}\n`), 'hooks');
}

/** Room for the owned entry (9 nodes) or a new `stop` member (11) under the node limit. */
const NODE_HEADROOM = 16;

/** The realistic document at the limits: ≤ 4 MiB and ~65.5k nodes. */
export const realistic4MiB = (): Uint8Array =>
  hooksDocument({ maxBytes: MAX_DOCUMENT_BYTES, maxNodes: MAX_NODES - NODE_HEADROOM });

/** The same density at 1 MiB (~16k nodes). */
export const realistic1MiB = (): Uint8Array =>
  hooksDocument({ maxBytes: MiB, maxNodes: MAX_NODES - NODE_HEADROOM });

/**
 * A hand-sized user file (~2 KB, indent 2): foreign hooks in seven events, including `stop`,
 * the way a person or a few tools would have written it.
 */
export function userFile(): Uint8Array {
  const hooks = {
    beforeShellExecution: [
      { command: './hooks/audit-shell.sh' },
      { command: '/usr/local/bin/guard --policy ~/.config/guard/policy.toml', timeout: 10 },
      { type: 'command', command: 'python3 ~/.cursor/hooks/block_rm_rf.py', failClosed: true },
    ],
    beforeMCPExecution: [
      { command: './hooks/mcp-allowlist.py', timeout: 3 },
      { command: '/opt/corp/bin/mcp-audit --server-list ~/.cursor/mcp-approved.json' },
    ],
    beforeReadFile: [
      { command: './hooks/redact-secrets.sh --patterns ~/.config/redact/patterns.txt' },
    ],
    beforeSubmitPrompt: [
      { command: './hooks/prompt-log.sh >> ~/.cursor/prompt.log' },
      { command: 'node ~/tools/prompt-guard/index.js --mode strict', timeout: 8 },
    ],
    afterFileEdit: [
      { command: 'npx prettier --write', timeout: 30 },
      { command: './hooks/lint-changed.sh', timeout: 60, failClosed: false },
      { command: 'cargo fmt --all -- --check', timeout: 45 },
      { command: 'ruff format --quiet', timeout: 20 },
    ],
    afterShellExecution: [
      { command: 'tee -a ~/.cursor/shell-history.log', timeout: 2 },
      { command: "/usr/bin/logger -t cursor-agent 'shell command finished'", timeout: 2 },
    ],
    stop: [
      { command: "say 'Agent finished'" },
      { command: "/opt/teamtools/bin/notify --channel '#agents' --message 'done ✓'", timeout: 5 },
      { command: 'git -C ~/work status --short > ~/.cursor/last-status.txt', timeout: 5 },
      { command: '~/bin/räksmörgås-reporter --summary', timeout: 15, failClosed: false },
    ],
  };
  return withinBudget(utf8(`${JSON.stringify({ version: 1, hooks }, null, 2)}\n`), 'user file');
}

/**
 * ~60 KB, indent 2: 200 foreign entries over five events (including `stop`), each a command
 * and four args, so 1,000 foreign string values of ~35–50 bytes.
 */
export function foreignStringsFile(): Uint8Array {
  const random = lcg(0xf00d);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = (target: number): string => {
    let out = '/home/dev';
    while (Buffer.byteLength(out, 'utf8') < target) out += `/${pick(WORDS)}`;
    return out;
  };
  const events = ['beforeShellExecution', 'beforeReadFile', 'afterFileEdit', 'custom', 'stop'];
  const hooks: Record<string, unknown[]> = {};
  for (const name of events) hooks[name] = [];
  for (let i = 0; i < 200; i++) {
    hooks[events[i % events.length] as string]?.push({
      command: text(30 + Math.floor(random() * 12)),
      args: Array.from({ length: 4 }, () => text(30 + Math.floor(random() * 12))),
    });
  }
  return withinBudget(utf8(`${JSON.stringify({ version: 1, hooks }, null, 2)}\n`), '60 KB file');
}

/** The same value on one line, as a tool writing compact JSON would leave it. */
export function minified(bytes: Uint8Array): Uint8Array {
  return withinBudget(
    utf8(JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)))),
    'minified',
  );
}

/**
 * `{"version":1,"hooks":{"stop":[…]}}` holding 1,000 strings of 2,000 `\\` escapes each:
 * ~4 MiB where every string takes the escaped (re-escaping) canonical path.
 */
export function escapeDocument(): Uint8Array {
  const escaped = `"${'\\\\'.repeat(2_000)}"`;
  const strings = Array.from({ length: 1_000 }, () => escaped).join(',');
  return withinBudget(utf8(`{"version":1,"hooks":{"stop":[${strings}]}}`), 'escape document');
}

// Hostile documents, each about 4 MiB and each refused for one reason.

/** Exactly 4 MiB of `[`: the depth limit. */
export const deepBrackets = (): Uint8Array => new Uint8Array(MAX_DOCUMENT_BYTES).fill(0x5b);

const STOP_PREFIX = '{"version":1,"hooks":{"stop":[';
const STOP_SUFFIX = ']}}';
/** root, version key and value, hooks key and object, stop key and array. */
const STOP_FRAME_NODES = 7;

/**
 * Valid JSON of 65,537 nodes (one over the limit) in ~4 MiB: `stop` holds 65,530 strings of
 * 61 bytes, so the budget pass meets the breaking node only at the very end.
 */
export function tooManyNodes(): Uint8Array {
  const count = MAX_NODES + 1 - STOP_FRAME_NODES;
  const width = Math.floor(
    (MAX_DOCUMENT_BYTES - STOP_PREFIX.length - STOP_SUFFIX.length + 1) / count - 3,
  );
  const strings = Array.from({ length: count }, (_, i) => {
    const head = `/opt/agent/hooks/${String(i).padStart(6, '0')}/`;
    return `"${head}${'x'.repeat(width - head.length)}"`;
  });
  const out = utf8(`${STOP_PREFIX}${strings.join(',')}${STOP_SUFFIX}`);
  expect(out.length <= MAX_DOCUMENT_BYTES, 'node document fits the size limit');
  expect(scanBudget(out).breach === 'nodes', 'node document breaks the node limit');
  return out;
}

/** `stop` holding one string of `content` bytes around which the frame makes `total` bytes. */
function oneString(total: number, last: string): Uint8Array {
  const frame = STOP_PREFIX.length + 2 + last.length + STOP_SUFFIX.length;
  return utf8(`${STOP_PREFIX}"${'a'.repeat(total - frame)}${last}"${STOP_SUFFIX}`);
}

/** Valid JSON, one byte over 4 MiB: one huge string. The size limit. */
export function oversizedString(): Uint8Array {
  const out = oneString(MAX_DOCUMENT_BYTES + 1, '');
  expect(out.length === MAX_DOCUMENT_BYTES + 1, 'oversized string is one byte over');
  return out;
}

/** Exactly 4 MiB, within every limit, but the huge string ends in a raw U+0001: syntax. */
export function controlCharString(): Uint8Array {
  const out = oneString(MAX_DOCUMENT_BYTES, '\u0001');
  expect(out.length === MAX_DOCUMENT_BYTES, 'control-char string is exactly 4 MiB');
  expect(out[out.length - 5] === 0x01, 'control char sits at the end of the string');
  expect(scanBudget(out).breach === undefined, 'control-char string is within budget');
  return out;
}

/**
 * A ~4 MiB root object of 32,767 members (65,535 nodes) whose keys share a long prefix and
 * differ only in their last digits; the last key repeats the first through a `\u0068` escape
 * (`h`), so the repeat is found only after decoding, at the very end.
 */
export function nearDuplicateKeys(): Uint8Array {
  const members = (MAX_NODES - 1) >> 1;
  const keyOf = (i: number, width: number) => {
    const tail = String(i).padStart(8, '0');
    return `/opt/agent/hooks/${'near-duplicate/'.repeat(6)}${'k'.repeat(width)}${tail}`;
  };
  const sizeOf = (width: number) => {
    const key = keyOf(0, width).length + 2; // quotes
    const member = key + 2; // colon and the value 0
    return 2 + '"version":1'.length + (members - 1) * (member + 1) + 5; // + commas, escape
  };
  let width = 0;
  while (sizeOf(width + 1) <= MAX_DOCUMENT_BYTES) width++;
  const parts = ['"version":1'];
  for (let i = 1; i < members - 1; i++) parts.push(`"${keyOf(i, width)}":0`);
  parts.push(`"${keyOf(1, width).replace('h', '\\u0068')}":0`);
  const out = utf8(`{${parts.join(',')}}`);
  expect(out.length <= MAX_DOCUMENT_BYTES, 'duplicate-key object fits the size limit');
  expect(scanBudget(out).breach === undefined, 'duplicate-key object is within budget');
  return out;
}

function withinBudget(bytes: Uint8Array, label: string): Uint8Array {
  const breach = scanBudget(bytes).breach;
  if (breach !== undefined) throw new Error(`${label} breaks the ${breach} limit`);
  return bytes;
}

function expect(condition: boolean, claim: string): void {
  if (!condition) throw new Error(`benchmark document check failed: ${claim}`);
}

/** Every container, object key and scalar: the SPEC §3 node count of a parsed value. */
export function countNodes(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + countNodes(v), 0);
  if (typeof value === 'object' && value !== null) {
    return 1 + Object.values(value).reduce((n: number, v) => n + 1 + countNodes(v), 0);
  }
  return 1;
}

/** Size, node count, string statistics and whether the document holds non-ASCII text. */
export function describe(bytes: Uint8Array): string {
  const decoded = new TextDecoder().decode(bytes);
  const strings = [...decoded.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    Buffer.byteLength(m[1] ?? '', 'utf8'),
  );
  const long = strings.filter((b) => b > 20);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return (
    `${bytes.length.toLocaleString('en')} bytes, ` +
    `${countNodes(JSON.parse(decoded)).toLocaleString('en')} nodes, ` +
    `${strings.length.toLocaleString('en')} strings (keys included) of mean ` +
    `${mean(strings).toFixed(1)} bytes (over 20 bytes: ${mean(long).toFixed(1)}), ` +
    `non-ASCII: ${decoded.length !== bytes.length}`
  );
}
