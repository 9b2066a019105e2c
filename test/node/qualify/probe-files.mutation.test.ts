// The probe directory's files through the fs seam: what makeProbeDirectory creates and with
// which modes and calls, replacePrivate's reads and writes, and clearProbe's removal: its order,
// its depth bound, symbolic links, absent files, and the path a failure names.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type ProbeLayout, probeLayout } from '../../../src/node/qualify/layout.js';
import { recorderScript } from '../../../src/node/qualify/recorder-script.js';
import { bindingBytes } from '../../../src/node/qualify/recording.js';
import { FLAGS } from '../../../src/node/write/fs-seam.js';
import { grammarFamily } from '../../../src/shell/families.js';
import { errno, tempDir } from '../support.js';
import { recordingSeam } from './support.js';

const POSIX = grammarFamily('posix-single-quote');
if (POSIX === undefined) throw new Error('no posix family');

/** probe-files.js imported afresh: its mode and depth constants evaluated under the mutant. */
async function fresh() {
  vi.resetModules();
  return import('../../../src/node/qualify/probe-files.js');
}

function layout(): ProbeLayout {
  const stateDir = join(tempDir(), 'state');
  mkdirSync(stateDir);
  return probeLayout(stateDir, POSIX as NonNullable<typeof POSIX>);
}

const mode = (path: string) => statSync(path).mode & 0o777;

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect((err as Error | undefined)?.name).toBe('HostIOError');
  return err as Record<string, unknown>;
}

describe('makeProbeDirectory', () => {
  it('makes the recordings directory 0700, the binding 0600 and the recorder script 0700, each written, chmodded, synced and closed (red: a mode, a step or a file missing)', async () => {
    const { makeProbeDirectory } = await fresh();
    const where = layout();
    const { fs, calls } = recordingSeam();
    await makeProbeDirectory(where, true, fs);
    expect(readdirSync(where.probeDir).sort()).toEqual([
      'binding.json',
      'record stop',
      'recordings',
    ]);
    expect(readdirSync(where.recordings)).toEqual([]);
    expect(mode(where.recordings)).toBe(0o700);
    expect(readFileSync(where.binding)).toEqual(Buffer.from(bindingBytes(where.recordings)));
    expect(mode(where.binding)).toBe(0o600);
    expect(readFileSync(where.scriptRecorder, 'utf8')).toBe(recorderScript(where.recordings));
    expect(mode(where.scriptRecorder)).toBe(0o700);
    const shown = calls.map(({ name, args }) =>
      name === 'write' ? [name, args[0]] : [name, ...args],
    );
    expect(shown).toEqual([
      ['mkdir', where.recordings, 0o700],
      ['open', where.binding, FLAGS.createExclusive, 0o600],
      ['write', where.binding],
      ['fchmod', where.binding, 0o600],
      ['fsync', where.binding],
      ['close', where.binding],
      ['open', where.scriptRecorder, FLAGS.createExclusive, 0o700],
      ['write', where.scriptRecorder],
      ['fchmod', where.scriptRecorder, 0o700],
      ['fsync', where.scriptRecorder],
      ['close', where.scriptRecorder],
    ]);
  });

  it('with the host`s own recorder makes no script (red: a kit script beside a host recorder)', async () => {
    const { makeProbeDirectory } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    const { fs } = recordingSeam();
    await makeProbeDirectory(where, false, fs);
    expect(readdirSync(where.probeDir).sort()).toEqual(['binding.json', 'recordings']);
  });

  it('a failure names the probe directory and the probe role (red: the error names no file)', async () => {
    const { makeProbeDirectory } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    const { fs } = recordingSeam((name) => {
      if (name === 'mkdir') throw errno('EACCES');
    });
    expect(await failure(makeProbeDirectory(where, true, fs))).toMatchObject({
      reason: 'permission-denied',
      code: 'EACCES',
      path: where.probeDir,
      role: 'probe',
    });
  });

  it('never writes over an existing binding, and closes a file whose write failed (red: a stale file reused, or a descriptor leaked)', async () => {
    const { makeProbeDirectory } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    mkdirSync(where.recordings, { recursive: true });
    writeFileSync(where.binding, 'theirs');
    const { fs } = recordingSeam();
    expect(await failure(makeProbeDirectory(where, false, fs))).toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(where.binding, 'utf8')).toBe('theirs');

    const other = layout();
    const failing = recordingSeam((name) => {
      if (name === 'write') throw errno('ENOSPC');
    });
    const err = await failure(makeProbeDirectory(other, true, failing.fs));
    expect(err).toMatchObject({ reason: 'disk-full', path: other.probeDir });
    const names = failing.calls.map((call) => call.name);
    expect(names.slice(-2)).toEqual(['write', 'close']);
    expect(names).not.toContain('fchmod');
  });
});

describe('replacePrivate', () => {
  it('creates a file 0600 with the bytes, then replaces them (red: a state readable by others, or not replaced)', async () => {
    const { replacePrivate } = await import('../../../src/node/qualify/probe-files.js');
    const file = join(tempDir(), 'qualification.json');
    const { fs, calls } = recordingSeam();
    await replacePrivate(file, new TextEncoder().encode('one\n'), fs);
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(mode(file)).toBe(0o600);
    expect(calls.some((call) => call.name === 'rename')).toBe(true);
    await replacePrivate(file, new TextEncoder().encode('two\n'), fs);
    expect(readFileSync(file, 'utf8')).toBe('two\n');
  });

  it('writes only a new name opened exclusively and renames it over a link at the name, whose target keeps its bytes (red: the write goes through the existing name, or the link)', async () => {
    const { replacePrivate } = await import('../../../src/node/qualify/probe-files.js');
    const dir = tempDir();
    const sentinel = join(tempDir(), 'sentinel');
    writeFileSync(sentinel, 'outside\n');
    const file = join(dir, 'qualification.json');
    symlinkSync(sentinel, file);
    const { fs, calls } = recordingSeam();
    await replacePrivate(file, new TextEncoder().encode('x'), fs);
    const opened = calls.filter((call) => call.name === 'open');
    expect(opened.map((call) => call.args[1])).toEqual([FLAGS.createExclusive, FLAGS.directory]);
    expect(opened.map((call) => call.args[0])).not.toContain(file);
    expect(readFileSync(sentinel, 'utf8')).toBe('outside\n');
    expect(readFileSync(file, 'utf8')).toBe('x');
    expect(readdirSync(dir)).toEqual(['qualification.json']);
  });

  it('a failed write names the file and the probe role (red: the write reports another role)', async () => {
    const { replacePrivate } = await import('../../../src/node/qualify/probe-files.js');
    const file = join(tempDir(), 'qualification.json');
    const { fs } = recordingSeam((name) => {
      if (name === 'rename') throw errno('EACCES');
    });
    expect(await failure(replacePrivate(file, new Uint8Array(1), fs))).toMatchObject({
      reason: 'permission-denied',
      path: file,
      role: 'probe',
    });
    expect(existsSync(file)).toBe(false);
  });

  it('a failure names the file and the probe role (red: it is reported as the hook file)', async () => {
    const { replacePrivate } = await import('../../../src/node/qualify/probe-files.js');
    const file = join(tempDir(), 'qualification.json');
    mkdirSync(file);
    const { fs } = recordingSeam();
    expect(await failure(replacePrivate(file, new Uint8Array(1), fs))).toMatchObject({
      path: file,
      role: 'probe',
    });
  });
});

/** Every file of a probe in progress, under `where`. */
function fill(where: ProbeLayout): void {
  mkdirSync(join(where.recordings, 'rec-1'), { recursive: true });
  writeFileSync(join(where.recordings, 'rec-1', 'argv'), 'a\0');
  writeFileSync(where.binding, '{}');
  writeFileSync(where.scriptRecorder, '#!/bin/sh\n');
  for (const file of [where.startFile, where.ledger, where.stateFile]) writeFileSync(file, '{}');
}

describe('clearProbe', () => {
  it('removes the probe directory, then the saved start, the ledger and the state file last, through the seam (red: the state goes first, or a file stays)', async () => {
    const { clearProbe } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    fill(where);
    const { fs, calls } = recordingSeam();
    await clearProbe(where, fs);
    expect(readdirSync(where.stateDir)).toEqual([]);
    const removed = calls
      .filter((call) => call.name === 'unlink' || call.name === 'rmdir')
      .map((call) => call.args[0])
      .filter((path) => !String(path).includes('.cursorhooks-lock'));
    expect(removed.slice(-4)).toEqual([
      where.probeDir,
      where.startFile,
      where.ledger,
      where.stateFile,
    ]);
    expect(removed).toContain(join(where.recordings, 'rec-1', 'argv'));
    // Each file's lock is taken through the seam too.
    for (const file of [where.startFile, where.ledger, where.stateFile]) {
      const locked = calls.some(
        (call) =>
          call.name === 'link' && String(call.args[0]).startsWith(`${file}.cursorhooks-lock-`),
      );
      expect(locked, file).toBe(true);
    }
  });

  it('absent files and an absent probe directory are already removed (red: a second clear fails)', async () => {
    const { clearProbe } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    writeFileSync(where.ledger, '{}');
    const { fs } = recordingSeam();
    await clearProbe(where, fs);
    await clearProbe(where, fs);
    expect(readdirSync(where.stateDir)).toEqual([]);
  });

  it('a probe path that is a file is unlinked; a symbolic link is removed, never followed (red: clean-up deletes outside the state directory)', async () => {
    const { clearProbe } = await import('../../../src/node/qualify/probe-files.js');
    const outside = tempDir();
    writeFileSync(join(outside, 'keep'), 'mine');
    const where = layout();
    mkdirSync(where.recordings, { recursive: true });
    symlinkSync(outside, join(where.recordings, 'link'));
    await clearProbe(where, recordingSeam().fs);
    expect(existsSync(where.probeDir)).toBe(false);
    expect(readFileSync(join(outside, 'keep'), 'utf8')).toBe('mine');

    const flat = layout();
    writeFileSync(flat.probeDir, 'a file');
    await clearProbe(flat, recordingSeam().fs);
    expect(existsSync(flat.probeDir)).toBe(false);
  });

  it('removes a file three directories below the probe directory, and refuses a directory four below, naming it (red: the depth bound moved, or more than the layout is removed)', async () => {
    const { clearProbe } = await fresh();
    const where = layout();
    const deepest = join(where.probeDir, 'a', 'b', 'c');
    mkdirSync(deepest, { recursive: true });
    writeFileSync(join(deepest, 'file'), '');
    await clearProbe(where, recordingSeam().fs);
    expect(existsSync(where.probeDir)).toBe(false);

    const deeper = layout();
    const tooDeep = join(deeper.probeDir, 'a', 'b', 'c', 'd');
    mkdirSync(tooDeep, { recursive: true });
    writeFileSync(deeper.stateFile, '{}');
    const err = await failure(clearProbe(deeper, recordingSeam().fs));
    expect(err).toMatchObject({
      reason: 'io-failure',
      code: 'ENOTEMPTY',
      path: tooDeep,
      role: 'probe',
    });
    expect(existsSync(tooDeep)).toBe(true);
    // Nothing after the tree is touched: the state still names the probe.
    expect(existsSync(deeper.stateFile)).toBe(true);
  });

  it('a probe directory it may not inspect fails naming it, the state file kept (red: the failure is swallowed)', async () => {
    const { clearProbe } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    fill(where);
    const { fs } = recordingSeam((name, path) => {
      if (name === 'lstat' && path === where.probeDir) throw errno('EACCES');
    });
    expect(await failure(clearProbe(where, fs))).toMatchObject({
      reason: 'permission-denied',
      path: where.probeDir,
      role: 'probe',
    });
    expect(existsSync(where.stateFile)).toBe(true);
  });

  it('a file it may not delete fails naming that file, and the state file stays (red: clean-up goes on and loses the state)', async () => {
    const { clearProbe } = await import('../../../src/node/qualify/probe-files.js');
    const where = layout();
    fill(where);
    const { fs } = recordingSeam((name, path) => {
      if (name === 'unlink' && path === where.ledger) throw errno('EACCES');
    });
    expect(await failure(clearProbe(where, fs))).toMatchObject({
      reason: 'permission-denied',
      path: where.ledger,
      role: 'probe',
    });
    expect(existsSync(where.startFile)).toBe(false);
    expect(existsSync(where.stateFile)).toBe(true);
  });
});
