import { DarwinCliShellContract } from './darwin-cli-2026.09.18.js';
import { LinuxUserShellContract } from './linux-user-3.22.12.js';
import { WindowsPowerShellStopContract } from './windows-powershell-stop-2026.10.01.js';

/** The qualified contracts the default container binds to SHELL_CONTRACT, in display order. */
export const BUILTIN_CONTRACTS = [
  LinuxUserShellContract,
  DarwinCliShellContract,
  WindowsPowerShellStopContract,
] as const;
