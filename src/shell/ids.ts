// Contract ids are part of the public contract: hosts store them in receipts and ledgers.

export const LinuxUserShell32212 = 'cursor-linux-user-3.22.12-single-quote';
export const DarwinUserShell20260918 = 'cursor-darwin-cli-2026.09.18-single-quote';
export const WindowsPowerShellStop20261001 = 'cursor-windows-cli-2026.10.01-powershell-stop';
/** Named so hosts can refer to it; no contract with this id may ever be registered. */
export const WindowsUnqualified = 'cursor-windows-unqualified';
