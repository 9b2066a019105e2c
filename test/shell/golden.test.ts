import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DarwinCliShellContract } from '../../contracts/darwin-cli-2026.09.18.js';
import { LinuxUserShellContract } from '../../contracts/linux-user-3.22.12.js';
import { WindowsPowerShellStopContract } from '../../contracts/windows-powershell-stop-2026.10.01.js';
import { UnsupportedError } from '../../src/errors/errors.js';

interface GoldenCase {
  readonly name: string;
  readonly argv: readonly string[];
  readonly linux: string;
  readonly windows: string | null;
}

const cases = JSON.parse(
  readFileSync(new URL('../../fixtures/render-golden.json', import.meta.url), 'utf8'),
) as GoldenCase[];

const linux = new LinuxUserShellContract();
const darwin = new DarwinCliShellContract();
const windows = new WindowsPowerShellStopContract();

describe('golden renderings', () => {
  it('holds cases, or an emptied fixture passes vacuously', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  describe.each(cases)('$name', (golden) => {
    it('renders the exact Linux command, or a quoting change reaches installed hooks', () => {
      expect(linux.render(golden.argv)).toBe(golden.linux);
    });

    it('renders Darwin exactly like Linux, or the shared POSIX grammar has forked', () => {
      expect(darwin.render(golden.argv)).toBe(golden.linux);
    });

    if (golden.windows === null) {
      it('refuses it on Windows, or a non-stop or non-drive argv reaches PowerShell', () => {
        expect(() => windows.render(golden.argv)).toThrow(UnsupportedError);
      });
    } else {
      const expected = golden.windows;
      it('renders the exact PowerShell command, or a quoting change reaches installed hooks', () => {
        expect(windows.render(golden.argv)).toBe(expected);
      });
    }
  });
});
