// The opt-in interrupt handlers, driven by emitting the signal on `process` with process.kill
// stubbed (the real one would end the test worker): installed once, removed again, and on a
// signal the side files go, the handlers go, and the same signal is raised again.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeSideFilesOnInterrupt } from '../../src/node/side-files/interrupt.js';
import { trackSideFile } from '../../src/node/side-files/side-file-registry.js';
import { tempDir } from './support.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const counts = () => SIGNALS.map((signal) => process.listenerCount(signal));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('removeSideFilesOnInterrupt', () => {
  it('adds one handler per signal however often it is called, and the returned function removes them (red: handlers pile up or stay)', () => {
    const before = counts();
    const uninstall = removeSideFilesOnInterrupt();
    expect(counts()).toEqual(before.map((n) => n + 1));
    expect(removeSideFilesOnInterrupt()).toBe(uninstall);
    expect(counts()).toEqual(before.map((n) => n + 1));
    uninstall();
    expect(counts()).toEqual(before);
    // Installable again after removal.
    removeSideFilesOnInterrupt()();
    expect(counts()).toEqual(before);
  });

  it.each(SIGNALS)(
    'on %s removes the tracked side files, its handlers, and raises the signal again (red: the process exits cleanly or keeps its files)',
    (signal) => {
      const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
      const path = join(tempDir(), 'side.tmp');
      writeFileSync(path, '');
      const untrack = trackSideFile(path);
      const before = counts();
      removeSideFilesOnInterrupt();
      process.emit(signal, signal);
      untrack();
      expect(existsSync(path)).toBe(false);
      expect(counts()).toEqual(before);
      expect(kill).toHaveBeenCalledExactlyOnceWith(process.pid, signal);
    },
  );
});
