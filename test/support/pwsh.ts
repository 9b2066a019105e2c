// One long-lived pwsh (test/support/pwsh/server.ps1) fed batches over JSON lines, so thousands
// of renderings cost one PowerShell start-up. Without pwsh the suites skip with a printed reason;
// when CURSORHOOKS_REQUIRED_SHELLS names `pwsh` (CI does) they fail instead.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { decodeStrict } from './common.js';
import { isExecutableFile } from './shells.js';

/** A command element as PowerShell's parser made it; `value` is the source text for non-strings. */
export interface ParsedElement {
  readonly ast: string;
  /** StringConstantType for a StringConstantExpressionAst, otherwise null. */
  readonly kind: string | null;
  readonly value: string;
}

/** A pipeline element: a command with its invocation operator, or any other AST by its text. */
export type ParsedPipelineElement =
  | { readonly ast: 'CommandAst'; readonly operator: string; readonly elements: ParsedElement[] }
  | { readonly ast: string; readonly text: string };

export interface ParseResult {
  /** ParseError ids, empty when the source parsed. */
  readonly errors: readonly string[];
  /** Top-level statements over every named block. */
  readonly statements: number;
  /** Every pipeline in the tree, nested script blocks included, outermost first. */
  readonly pipelines: readonly (readonly ParsedPipelineElement[])[];
}

export type ArgumentPassing = 'Standard' | 'Legacy';

/** What one source did when run, and what the recorder saw (null: the recorder never ran). */
export interface RunResult {
  /** FullyQualifiedErrorId of every error the run raised. */
  readonly errors: readonly string[];
  readonly output: readonly string[];
  /** $LASTEXITCODE: null when no native command ran. */
  readonly exit: number | null;
  /** The file the recorder was started as. */
  readonly self: string | null;
  readonly argv: readonly string[] | null;
  readonly stdin: string | null;
}

const REQUIRED = (process.env.CURSORHOOKS_REQUIRED_SHELLS ?? '').split(/\s+/).includes('pwsh');
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = fileURLToPath(new URL('./pwsh/server.ps1', import.meta.url));
/** Where the `dotnet tool install` of docs/contributing.md puts it. */
const LOCAL_TOOL = path.join(REPO, '.tools', 'pwsh', 'pwsh');

/** pwsh on PATH, else the checkout's .tools/pwsh; a reason when neither is there. */
function findPwsh(): { readonly file: string } | { readonly missing: string } {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  const file = [...dirs.map((dir) => path.join(dir, 'pwsh')), LOCAL_TOOL].find(isExecutableFile);
  if (file !== undefined) return { file };
  return {
    missing: `pwsh is neither on PATH nor at ${LOCAL_TOOL} (install it with: dotnet tool install PowerShell --version 7.6.10 --tool-path .tools/pwsh)`,
  };
}

/** Escapes every non-ASCII code unit, so the request is ASCII whatever pwsh's encodings are. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

interface WireRun extends Omit<RunResult, 'self' | 'argv' | 'stdin'> {
  readonly self: string | null;
  readonly argv: string | null;
  readonly stdin: string | null;
}

const fromBase64 = (text: string | null) =>
  text === null ? null : decodeStrict(Buffer.from(text, 'base64'));

/** The recorder writes one NUL-terminated record per argument. */
function splitRecords(text: string | null): readonly string[] | null {
  if (text === null) return null;
  if (text === '') return [];
  return text.endsWith('\0')
    ? text.slice(0, -1).split('\0')
    : [...text.split('\0'), '<unterminated>'];
}

const fromWire = (result: WireRun): RunResult => ({
  ...result,
  self: fromBase64(result.self),
  argv: splitRecords(fromBase64(result.argv)),
  stdin: fromBase64(result.stdin),
});

export class PwshSession {
  readonly #child: ChildProcess;
  readonly #socket: net.Socket;
  readonly #scratch: string;
  #buffer = '';
  #stderr = '';
  #waiting: ((line: string | Error) => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  /** The pwsh this session runs, for suites that start one of their own. */
  readonly file: string;

  private constructor(file: string, child: ChildProcess, socket: net.Socket, scratch: string) {
    this.file = file;
    this.#child = child;
    this.#socket = socket;
    this.#scratch = scratch;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      for (let end = this.#buffer.indexOf('\n'); end >= 0; end = this.#buffer.indexOf('\n')) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        this.#waiting.shift()?.(line);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString('utf8');
    });
    const fail = () => {
      for (const waiter of this.#waiting.splice(0)) {
        waiter(new Error(`pwsh went away: ${this.#stderr}`));
      }
    };
    socket.on('close', fail);
    child.on('exit', fail);
  }

  /** Starts pwsh and waits until it has compiled its helper and connected. */
  static async start(file: string): Promise<PwshSession> {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-pwsh-'));
    fs.mkdirSync(path.join(scratch, 'record'));
    const socketPath = path.join(scratch, 'socket');
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    const child = spawn(
      file,
      [
        '-NoProfile',
        '-NonInteractive',
        '-File',
        SERVER,
        '-Socket',
        socketPath,
        '-RecordDir',
        path.join(scratch, 'record'),
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          // Telemetry and the update check would reach the network.
          POWERSHELL_TELEMETRY_OPTOUT: '1',
          POWERSHELL_UPDATECHECK: 'Off',
          DOTNET_CLI_TELEMETRY_OPTOUT: '1',
          NO_COLOR: '1',
          CURSORHOOKS_RECORD_DIR: path.join(scratch, 'record'),
        },
      },
    );
    let stderr = '';
    const collect = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    };
    child.stderr?.on('data', collect);
    try {
      const socket = await new Promise<net.Socket>((resolve, reject) => {
        server.once('connection', resolve);
        child.once('error', reject);
        child.once('exit', (code) =>
          reject(new Error(`pwsh exited ${code} before connecting: ${stderr}`)),
        );
      });
      child.stderr?.off('data', collect);
      return new PwshSession(file, child, socket, scratch);
    } finally {
      server.close();
    }
  }

  /** One request at a time: answers come back in order, one line each. */
  #request(request: object): Promise<unknown> {
    const answer = this.#queue.then(
      () =>
        new Promise<unknown>((resolve, reject) => {
          this.#waiting.push((line) => {
            if (line instanceof Error) return reject(line);
            const reply = JSON.parse(line) as { ok: boolean; result?: unknown; error?: string };
            if (reply.ok) resolve(reply.result);
            else reject(new Error(`pwsh refused the request: ${reply.error}`));
          });
          this.#socket.write(`${asciiJson(request)}\n`);
        }),
    );
    this.#queue = answer.catch(() => undefined);
    return answer;
  }

  /** What `[Parser]::ParseInput` makes of each source. */
  async parse(sources: readonly string[]): Promise<readonly ParseResult[]> {
    return (await this.#request({ op: 'parse', sources })) as ParseResult[];
  }

  /** Maps every drive letter A–Z onto `root`, so `X:\a\b` resolves to `<root>/a/b`. */
  async mapDrives(root: string): Promise<void> {
    await this.#request({ op: 'drives', root });
  }

  /** Runs each source in turn as a script under the given native argument passing. */
  async run(mode: ArgumentPassing, sources: readonly string[]): Promise<readonly RunResult[]> {
    const results = (await this.#request({ op: 'run', mode, sources })) as WireRun[];
    return results.map(fromWire);
  }

  /** Runs one source as a hook: in `cwd`, with `env` set for it (null unsets a variable). */
  async runIn(
    mode: ArgumentPassing,
    source: string,
    place: { readonly cwd: string; readonly env: Readonly<Record<string, string | null>> },
  ): Promise<RunResult> {
    return fromWire((await this.#request({ op: 'run-in', mode, source, ...place })) as WireRun);
  }

  async close(): Promise<void> {
    const running = this.#child.exitCode === null && this.#child.signalCode === null;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    // End of input ends the server's read loop, and pwsh exits.
    this.#socket.end();
    if (running) await exited;
    fs.rmSync(this.#scratch, { recursive: true, force: true });
  }
}

/**
 * A describe block with a started PwshSession. Without pwsh it prints why and skips, or, when
 * CURSORHOOKS_REQUIRED_SHELLS names pwsh, holds one failing test instead.
 */
export function describeWithPwsh(title: string, body: (pwsh: () => PwshSession) => void): void {
  const found = findPwsh();
  if ('missing' in found) {
    if (REQUIRED) {
      describe(title, () => {
        it('finds pwsh, which CURSORHOOKS_REQUIRED_SHELLS names, or CI skips every PowerShell check', () => {
          throw new Error(found.missing);
        });
      });
      return;
    }
    console.log(`skipping "${title}": ${found.missing}`);
  }
  describe.skipIf('missing' in found)(title, () => {
    let session: PwshSession | undefined;
    beforeAll(async () => {
      if ('file' in found) session = await PwshSession.start(found.file);
    }, 60_000);
    afterAll(async () => {
      await session?.close();
    });
    body(() => {
      if (session === undefined) throw new Error('pwsh was not started');
      return session;
    });
  });
}
