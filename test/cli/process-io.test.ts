// The executable's stdin and stdout: plain reads and writes on a pipe, socket or file, and the
// hand-over to process.stdin / process.stdout where those do not serve, edge by edge: which
// descriptors count as plain, Windows, a failing fstat, the exit code of each stdout failure,
// and exactly which reads and writes are made. The plain path runs for real in
// built-cli.test.ts; here the descriptors are simulated, to reach every hand-over.
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (original) => ({
  ...(await original<typeof import('node:fs')>()),
  fstatSync: vi.fn(),
  readSync: vi.fn(),
  writeSync: vi.fn(),
}));

type Kind = 'fifo' | 'socket' | 'file' | 'tty';
const stats = (kind: Kind) =>
  ({
    isFIFO: () => kind === 'fifo',
    isSocket: () => kind === 'socket',
    isFile: () => kind === 'file',
  }) as fs.Stats;
const failure = (code: string) => Object.assign(new Error(code), { code });

let written: string[];
let exits: (string | number | null | undefined)[];
let onError: ((err: unknown) => void) | undefined;
const platform = Object.getOwnPropertyDescriptor(process, 'platform') as PropertyDescriptor;

beforeEach(() => {
  vi.resetModules();
  for (const fn of [fs.fstatSync, fs.readSync, fs.writeSync]) vi.mocked(fn).mockReset();
  written = [];
  exits = [];
  onError = undefined;
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(Buffer.from(chunk as string | Uint8Array).toString('utf8'));
    return true;
  });
  vi.spyOn(process.stdout, 'on').mockImplementation(((event: string, listener: () => void) => {
    if (event === 'error') onError = listener;
    return process.stdout;
  }) as typeof process.stdout.on);
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    exits.push(code);
    return undefined as never;
  });
});

afterEach(() => {
  Object.defineProperty(process, 'platform', platform);
  vi.restoreAllMocks();
});

const processIO = () => import('../../src/cli/process-io.js');
const nextTick = () => new Promise((resolve) => process.nextTick(resolve));

/** writeSync writing everything it is given, recording each call's offset. */
function plainWrites(): number[] {
  const offsets: number[] = [];
  vi.mocked(fs.writeSync).mockImplementation(((_fd: number, bytes: Buffer, at: number) => {
    offsets.push(at);
    return bytes.length - at;
  }) as typeof fs.writeSync);
  return offsets;
}

describe('stdout of the executable', () => {
  it('writes a socket whole with plain writes, resuming after a short one (red: output is cut or goes through the stream)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
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
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
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

  it('uses process.stdout for a terminal (red: a terminal is written byte-wise, not as Node writes it)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('tty'));
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('text\n');
    expect(written).toEqual(['text\n']);
    expect(fs.writeSync).not.toHaveBeenCalled();
  });
});

describe('stdin of the executable', () => {
  it('reads a socket to its end, then goes on with process.stdin after an EAGAIN (red: a non-blocking pipe cuts the request)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
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
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
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

describe('which stdout is plain', () => {
  it.each(['fifo', 'socket', 'file'] as const)(
    'a %s is written with plain writes on descriptor 1 (red: a pipe, socket or file goes through the stream)',
    async (kind) => {
      vi.mocked(fs.fstatSync).mockReturnValue(stats(kind));
      const offsets = plainWrites();
      const { writeStandardOutput } = await processIO();
      writeStandardOutput('héllo');
      expect(vi.mocked(fs.fstatSync).mock.calls).toEqual([[1]]);
      expect(offsets).toEqual([0]);
      expect(vi.mocked(fs.writeSync).mock.calls[0]?.[0]).toBe(1);
      expect(
        Buffer.from(vi.mocked(fs.writeSync).mock.calls[0]?.[1] as unknown as Buffer).toString(),
      ).toBe('héllo');
      expect(written).toEqual([]);
    },
  );

  it('a descriptor fstat cannot read goes through the stream (red: a failing fstat is a crash or a plain write)', async () => {
    vi.mocked(fs.fstatSync).mockImplementation(() => {
      throw failure('EBADF');
    });
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('a');
    expect(written).toEqual(['a']);
    expect(fs.writeSync).not.toHaveBeenCalled();
  });

  it('on Windows the stream is used without asking fstat (red: Windows consoles are written byte-wise)', async () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('a');
    expect(written).toEqual(['a']);
    expect(fs.fstatSync).not.toHaveBeenCalled();
    expect(fs.writeSync).not.toHaveBeenCalled();
  });

  it('asks fstat once, and keeps writing plainly (red: every write re-checks, or the mode is lost)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('socket'));
    const offsets = plainWrites();
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('ab');
    writeStandardOutput('cd');
    expect(fs.fstatSync).toHaveBeenCalledTimes(1);
    expect(offsets).toEqual([0, 0]);
    expect(written).toEqual([]);
  });
});

describe('stdout failures', () => {
  // Red: EPIPE ends in a stack trace; an I/O failure exits 141, 0 or twice; more is written.
  it.each([
    ['the reader has gone', 'socket', 'EPIPE', 141],
    ['any other failure', 'file', 'EIO', 74],
  ] as const)(
    'a plain write failing because %s (a %s, %s) ends with %i, once, after the current step, writing nothing more',
    async (_, kind, code, exit) => {
      vi.mocked(fs.fstatSync).mockReturnValue(stats(kind));
      vi.mocked(fs.writeSync).mockImplementation(() => {
        throw failure(code);
      });
      const { writeStandardOutput } = await processIO();
      writeStandardOutput('first');
      writeStandardOutput('second');
      expect(exits).toEqual([]);
      await nextTick();
      expect(exits).toEqual([exit]);
      expect(fs.writeSync).toHaveBeenCalledTimes(1);
      expect(written).toEqual([]);
      expect(process.stdout.on).not.toHaveBeenCalled();
    },
  );

  it('the stream`s error ends with 141 for EPIPE and 74 otherwise, after the current step (red: a stream failure is a stack trace or the wrong code)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('tty'));
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('a');
    writeStandardOutput('b');
    expect(written).toEqual(['a', 'b']);
    expect(process.stdout.on).toHaveBeenCalledTimes(1);
    onError?.(failure('EPIPE'));
    onError?.(failure('ENOSPC'));
    expect(exits).toEqual([]);
    await nextTick();
    expect(exits).toEqual([141, 74]);
  });

  it('after an EAGAIN the stream takes the rest and every later write, with plain writes stopped (red: output after EAGAIN is lost or doubled)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('fifo'));
    vi.mocked(fs.writeSync).mockImplementationOnce(() => {
      throw failure('EAGAIN');
    });
    const { writeStandardOutput } = await processIO();
    writeStandardOutput('xyz');
    writeStandardOutput('w');
    expect(written).toEqual(['xyz', 'w']);
    expect(fs.writeSync).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([]);
  });
});

describe('stdin', () => {
  it('reads descriptor 0 in 64 KiB chunks at the current position (red: another descriptor, size or offset)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('file'));
    vi.mocked(fs.readSync)
      .mockImplementationOnce(((_fd: number, chunk: Buffer) =>
        chunk.write('{}')) as typeof fs.readSync)
      .mockReturnValueOnce(0);
    const { standardInput } = await processIO();
    const chunks: string[] = [];
    for await (const chunk of standardInput()) chunks.push(Buffer.from(chunk).toString());
    expect(chunks).toEqual(['{}']);
    const [fd, buffer, offset, length, position] = vi.mocked(fs.readSync).mock
      .calls[0] as unknown as [number, Buffer, number, number, null];
    expect([fd, buffer.length, offset, length, position]).toEqual([0, 65536, 0, 65536, null]);
    expect(vi.mocked(fs.fstatSync).mock.calls).toEqual([[0]]);
  });

  it('a read failing with anything but EAGAIN is thrown (red: a broken stdin reads as an empty request)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('fifo'));
    vi.mocked(fs.readSync).mockImplementation(() => {
      throw failure('EIO');
    });
    const { standardInput } = await processIO();
    await expect(standardInput().next()).rejects.toThrow('EIO');
  });

  it('a terminal is read through process.stdin only (red: a terminal is read with plain reads)', async () => {
    vi.mocked(fs.fstatSync).mockReturnValue(stats('tty'));
    const stream = (async function* () {
      yield Buffer.from('typed');
    })();
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(stream as unknown as typeof process.stdin);
    const { standardInput } = await processIO();
    const chunks: string[] = [];
    for await (const chunk of standardInput()) chunks.push(Buffer.from(chunk).toString());
    expect(chunks).toEqual(['typed']);
    expect(fs.readSync).not.toHaveBeenCalled();
  });
});
