// The recorder protocol: how a probe's recorder writes down one invocation, and how finish
// reads it back. The kit's POSIX script (`recorder-script.ts`) and `recordProbeInvocation` (for
// a host's own executable, which the Windows family needs) write the same layout:
//
//   <recordings>/rec-<unique>/argv            every argument, its own path first, each + NUL
//   <recordings>/rec-<unique>/cwd             the working directory (one trailing LF allowed)
//   <recordings>/rec-<unique>/stdin           at most the first MAX_STDIN_BYTES of stdin
//   <recordings>/rec-<unique>/cursor-version  CURSOR_VERSION's bytes, only when it was set
//
// A recording is written under a `.tmp-` name and renamed into place, so finish never reads a
// half-written one. The binding file (the selector token) names the recordings directory.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { aboutFile, errnoOf, HostIOError } from '../errors.js';
import { readBoundedFile } from '../write/bounded-file.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { randomHex } from '../write/random.js';

export const MAX_STDIN_BYTES = 1024 * 1024;
/** Cursor fires stop once per agent turn; more recordings than this are not one probe's. */
const MAX_RECORDINGS = 256;
const MAX_FIELD_BYTES = 1024 * 1024;
/** A binding file is one short JSON line; anything larger is not one. */
const MAX_BINDING_BYTES = 64 * 1024;
const BINDING_KEY = 'cursorhooksProbe';
const RECORDING_PREFIX = 'rec-';

/** One invocation as the recorder wrote it. */
export interface Recording {
  readonly name: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly stdin: Uint8Array;
  readonly cursorVersionEnv: string | null;
}

/** The binding file's bytes: JSON naming the recordings directory. */
export function bindingBytes(recordings: string): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify({ [BINDING_KEY]: 1, recordings })}\n`);
}

export interface ProbeInvocation {
  /** The arguments as the executable received them, its own path first. */
  readonly argv: readonly string[];
  readonly stdin: Uint8Array | string;
  /** Default: process.cwd(). */
  readonly cwd?: string;
  /** Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * For a host executable that serves as a probe's recorder (the Windows family needs one): when
 * this invocation's binding is a probe's, records it and returns `{recorded: true}`; the
 * executable then answers `{}` on stdout and exits 0. Otherwise `{recorded: false}`, and the
 * executable handles the stop as it always does. A mangled argv is still recorded: every token
 * is tried as the binding, so finish can show what the launcher did.
 */
export async function recordProbeInvocation(
  invocation: ProbeInvocation,
): Promise<{ readonly recorded: boolean }> {
  const argv = [...invocation.argv];
  const flag = argv.indexOf('--binding');
  const candidates = [...(flag >= 0 ? [argv[flag + 1]] : []), ...argv];
  let recordings: string | undefined;
  for (const candidate of candidates) {
    recordings = candidate === undefined ? undefined : await probeBindingOf(candidate);
    if (recordings !== undefined) break;
  }
  if (recordings === undefined) return { recorded: false };
  const stdin =
    typeof invocation.stdin === 'string'
      ? new TextEncoder().encode(invocation.stdin)
      : invocation.stdin;
  const version = (invocation.env ?? process.env).CURSOR_VERSION;
  const unique = `${process.pid}-${Date.now()}-${await randomHex(4)}`;
  const staging = path.join(recordings, `.tmp-${unique}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await writeFile(path.join(staging, 'argv'), argv.map((token) => `${token}\0`).join(''));
    await writeFile(path.join(staging, 'cwd'), invocation.cwd ?? process.cwd());
    await writeFile(path.join(staging, 'stdin'), stdin.subarray(0, MAX_STDIN_BYTES));
    if (version !== undefined) await writeFile(path.join(staging, 'cursor-version'), version);
    await rename(staging, path.join(recordings, `${RECORDING_PREFIX}${unique}`));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { recorded: true };
}

/**
 * The recordings directory a probe binding names; undefined for any other file. Every argv
 * token is tried, so the read is bounded and never follows a link or waits on a FIFO.
 */
async function probeBindingOf(file: string): Promise<string | undefined> {
  try {
    const read = await readBoundedFile(file, nodeFs, {
      maxBytes: MAX_BINDING_BYTES,
      noFollow: true,
    });
    if (read === undefined) return undefined;
    const value: unknown = JSON.parse(UTF8.decode(read.bytes));
    if (typeof value !== 'object' || value === null) return undefined;
    const { [BINDING_KEY]: marker, recordings } = value as Record<string, unknown>;
    return marker === 1 && typeof recordings === 'string' ? recordings : undefined;
  } catch {
    return undefined;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every finished recording, oldest name first; an absent directory holds none. Each is a real
 * directory of bounded regular files: a link or a FIFO planted there is malformed, not followed.
 */
export async function readRecordings(
  recordings: string,
  fs: FsSeam = nodeFs,
): Promise<readonly Recording[]> {
  let names: string[];
  try {
    names = await fs.readdir(recordings);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw aboutFile(err, 'probe', recordings);
  }
  const finished = names.filter((name) => name.startsWith(RECORDING_PREFIX)).sort();
  if (finished.length > MAX_RECORDINGS) throw malformed(recordings);
  const read: Recording[] = [];
  for (const name of finished) {
    read.push(await readRecording(path.join(recordings, name), name, fs));
  }
  return read;
}

async function readRecording(dir: string, name: string, fs: FsSeam): Promise<Recording> {
  if (!(await isDirectory(dir, fs))) throw malformed(dir);
  const argvBytes = await field(dir, 'argv', fs);
  const cwdBytes = await field(dir, 'cwd', fs);
  const stdin = await field(dir, 'stdin', fs);
  if (argvBytes === undefined || cwdBytes === undefined || stdin === undefined) {
    throw malformed(dir);
  }
  const version = await field(dir, 'cursor-version', fs);
  try {
    const argvText = UTF8.decode(argvBytes);
    if (!argvText.endsWith('\0')) throw malformed(dir);
    return {
      name,
      argv: argvText.slice(0, -1).split('\0'),
      cwd: UTF8.decode(cwdBytes).replace(/\n$/, ''),
      stdin,
      cursorVersionEnv: version === undefined ? null : UTF8.decode(version),
    };
  } catch {
    throw malformed(dir);
  }
}

async function isDirectory(dir: string, fs: FsSeam): Promise<boolean> {
  try {
    return (await fs.lstat(dir)).isDirectory();
  } catch (err) {
    throw aboutFile(err, 'probe', dir);
  }
}

/** One field's bytes; a field over its bound, a link or not a regular file is malformed. */
async function field(dir: string, name: string, fs: FsSeam): Promise<Uint8Array | undefined> {
  try {
    const file = path.join(dir, name);
    const read = await readBoundedFile(file, fs, { maxBytes: MAX_FIELD_BYTES + 1, noFollow: true });
    return read?.bytes;
  } catch (err) {
    const reason = err instanceof HostIOError ? err.reason : undefined;
    if (reason === 'file-too-large' || reason === 'file-is-link' || reason === 'file-not-regular') {
      throw malformed(dir);
    }
    throw aboutFile(err, 'probe', path.join(dir, name));
  }
}

function malformed(where: string): HostIOError {
  return new HostIOError('probe-recording-malformed', undefined, { path: where, role: 'probe' });
}
