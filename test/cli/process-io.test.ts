// The executable's stdin and stdout: plain reads and writes on a pipe, socket or file, and the
// hand-over to process.stdin / process.stdout where those do not serve. The plain path runs for
// real in built-cli.test.ts; here the descriptors are simulated, to reach every hand-over.
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (original) => ({
  ...(await original<typeof import('node:fs')>()),
  fstatSync: vi.fn(),
  readSync: vi.fn(),
  writeSync: vi.fn(),
}));

const kind = (socket: boolean) => ({
  isFIFO: () => false,
  isSocket: () => socket,
  isFile: () => false,
});
const failure = (code: string) => Object.assign(new Error(code), { code });

let written: string[];
let exits: (string | number | null | undefined)[];

beforeEach(() => {
  vi.resetModules();
  for (const fn of [fs.fstatSync, fs.readSync, fs.writeSync]) vi.mocked(fn).mockReset();
  written = [];
  exits = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(Buffer.from(chunk as string | Uint8Array).toString('utf8'));
    return true;
  });
  vi.spyOn(process.stdout, 'on').mockImplementation(() => process.stdout);
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    exits.push(code);
    return undefined as never;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const processIO = () => import('../../src/cli/process-io.js');
const nextTick = () => new Promise((resolve) => process.nextTick(resolve));

describe('stdout of the executable', () => {
  it('writes a socket whole with plain writes, resuming after a short one (red: output is cut or goes through the stream)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(true) as fs.Stats);
    const plain: string[] = [];
    vi.mocked(fs.writeSync).mockImplementation(((_fd: number, bytes: Buffer, at: number) => {
      const end = Math.min(bytes.length, at + 3);
      plain.push(bytes.subarray(at, end).toString('utf8'));
      return end - at;
    }) as typeof fs.writeSync);
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('{"a": "é"}\n');
    expect(plain.join('')).toBe('{"a": "é"}\n');
    expect(written).toEqual([]);
  });

  it('hands the rest to process.stdout from the first EAGAIN on, in order (red: a non-blocking pipe loses or reorders output)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(true) as fs.Stats);
    vi.mocked(fs.writeSync)
      .mockReturnValueOnce(2)
      .mockImplementationOnce(() => {
        throw failure('EAGAIN');
      });
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('abcdef');
    writeStandardOutput('gh');
    expect(written).toEqual(['cdef', 'gh']);
    expect(fs.writeSync).toHaveBeenCalledTimes(2);
    expect(process.stdout.on).toHaveBeenCalledWith('error', expect.any(Function));
  });

  it('ends with 141 after the current step when the reader has gone, writing nothing more (red: EPIPE ends in a stack trace)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(true) as fs.Stats);
    vi.mocked(fs.writeSync).mockImplementation(() => {
      throw failure('EPIPE');
    });
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('first');
    writeStandardOutput('second');
    expect(exits).toEqual([]);
    await nextTick();
    expect(exits).toEqual([141]);
    expect(fs.writeSync).toHaveBeenCalledTimes(1);
    expect(written).toEqual([]);
  });

  it('uses process.stdout for a terminal (red: a terminal is written byte-wise, not as Node writes it)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(false) as fs.Stats);
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('text\n');
    expect(written).toEqual(['text\n']);
    expect(fs.writeSync).not.toHaveBeenCalled();
  });
});

describe('stdin of the executable', () => {
  it('reads a socket to its end, then goes on with process.stdin after an EAGAIN (red: a non-blocking pipe cuts the request)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(true) as fs.Stats);
    vi.mocked(fs.readSync)
      .mockImplementationOnce(((_fd: number, chunk: Buffer) =>
        chunk.write('{"a"')) as typeof fs.readSync)
      .mockImplementationOnce(() => {
        throw failure('EAGAIN');
      });
    const rest = (async function* () {
      yield Buffer.from(': 1}');
    })();
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(rest as unknown as typeof process.stdin);
    const { standardInput } = await processIO();
    const chunks: string[] = [];
    for await (const chunk of standardInput()) chunks.push(Buffer.from(chunk).toString('utf8'));
    expect(chunks).toEqual(['{"a"', ': 1}']);
  });

  it('ends at the first empty read (red: the request waits for input that never comes)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(kind(true) as fs.Stats);
    vi.mocked(fs.readSync)
      .mockImplementationOnce(((_fd: number, chunk: Buffer) =>
        chunk.write('{}')) as typeof fs.readSync)
      .mockReturnValueOnce(0);
    const { standardInput } = await processIO();
    const chunks: string[] = [];
    for await (const chunk of standardInput()) chunks.push(Buffer.from(chunk).toString('utf8'));
    expect(chunks).toEqual(['{}']);
    expect(fs.readSync).toHaveBeenCalledTimes(2);
  });
});
