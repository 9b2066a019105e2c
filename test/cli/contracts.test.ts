import { describe, expect, it } from 'vitest';
import {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import { cli, output } from './support.js';

interface ContractOutput {
  readonly id: string;
  readonly evidence: {
    readonly client: string;
    readonly version: string;
    readonly platform: string;
    readonly observed: readonly string[];
    readonly notObserved: readonly string[];
    readonly artifacts: readonly { readonly name: string; readonly sha256: string }[];
  };
}

describe('cursorhooks contracts', () => {
  it('lists the three built-in ids with their evidence, exit 0 (red: a contract or its evidence is missing)', async () => {
    const contracts = output<ContractOutput[]>(await cli(['contracts', '--json']));
    expect(contracts.map((contract) => contract.id)).toEqual([
      LinuxUserShell32212,
      DarwinUserShell20260918,
      WindowsPowerShellStop20261001,
    ]);
    for (const { evidence } of contracts) {
      expect(evidence.client).not.toBe('');
      expect(evidence.version).not.toBe('');
      expect(evidence.observed.length).toBeGreaterThan(0);
      expect(Array.isArray(evidence.notObserved)).toBe(true);
    }
    const windows = contracts.find((contract) => contract.id === WindowsPowerShellStop20261001);
    expect(windows?.evidence.artifacts.map((artifact) => artifact.sha256)).toContain(
      '31896ce9a43f63c8ae7ff3c4bee868213d6d02d60fb49908bef6dc91d582f6ee',
    );
  });

  it('prints a readable paragraph per contract by default (red: text output is missing or JSON)', async () => {
    const outcome = await cli(['contracts']);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stderr).toBe('');
    const paragraphs = outcome.stdout.split('\n\n');
    expect(paragraphs.map((paragraph) => paragraph.split('\n', 1)[0])).toEqual([
      LinuxUserShell32212,
      DarwinUserShell20260918,
      WindowsPowerShellStop20261001,
    ]);
    expect(paragraphs[1]).toContain('  qualified on: Cursor CLI 2026.09.18-9a7762b, darwin/arm64');
    expect(outcome.stdout).toMatch(/\n {2}not observed: /);
  });
});
