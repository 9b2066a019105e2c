import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { DarwinCliShellContract } from '../../contracts/darwin-cli-2026.09.18.js';
import { LinuxUserShellContract } from '../../contracts/linux-user-3.22.12.js';
import { WindowsPowerShellStopContract } from '../../contracts/windows-powershell-stop-2026.10.01.js';
import type { QualificationEvidence } from '../../src/shell/contract.js';

const linux = new LinuxUserShellContract().evidence;
const darwin = new DarwinCliShellContract().evidence;
const windows = new WindowsPowerShellStopContract().evidence;

const hashes = (evidence: QualificationEvidence) =>
  evidence.artifacts.map((artifact) => artifact.sha256);

describe('qualification evidence', () => {
  it.each([
    ['Linux', linux],
    ['Darwin', darwin],
    ['Windows', windows],
  ])(
    '%s evidence is frozen all the way down, or one host can rewrite what another displays',
    (_name, evidence) => {
      expect(Object.isFrozen(evidence)).toBe(true);
      expect(Object.isFrozen(evidence.observed)).toBe(true);
      expect(Object.isFrozen(evidence.notObserved)).toBe(true);
      expect(Object.isFrozen(evidence.artifacts)).toBe(true);
      for (const artifact of evidence.artifacts) expect(Object.isFrozen(artifact)).toBe(true);
      expect(() => {
        (evidence as { version: string }).version = 'tampered';
      }).toThrow(TypeError);
      expect(evidence.observed.length).toBeGreaterThan(0);
      expect(evidence.notObserved.length).toBeGreaterThan(0);
    },
  );

  it('holds the Darwin index.js hash from the seed, or hosts show an unverifiable build', () => {
    expect(darwin).toMatchObject({
      version: '2026.09.18-9a7762b',
      arch: 'arm64',
      date: '2026-10-10',
    });
    expect(hashes(darwin)).toEqual([
      '19af19274b07dcb8ad9bd86915320b7b49a62de763af10c6857ab45257c8a14b',
    ]);
  });

  it('holds the Windows archive and index.js hashes from the seed, or hosts show an unverifiable build', () => {
    expect(windows).toMatchObject({
      version: '2026.10.01-e373342',
      arch: 'amd64',
      date: '2026-10-12',
    });
    expect(windows.run).toContain('38220319890');
    expect(hashes(windows)).toEqual([
      '31896ce9a43f63c8ae7ff3c4bee868213d6d02d60fb49908bef6dc91d582f6ee',
      '0e7e28c34e050c6b83fe574e1fefa8d95d7c80bea6c4a4d3ae2726e5191243ef',
    ]);
  });

  it('records nothing the Linux spike did not record, or the evidence overstates it', () => {
    expect(linux).toMatchObject({ version: '3.22.12', arch: null, date: null, run: null });
    expect(linux.artifacts).toEqual([]);
    expect(linux.notObserved.some((line) => line.includes('preprocessing'))).toBe(true);
  });
});
