// Every file Cursor reads hooks from, in its order (cursor.com/docs/reference/third-party-hooks):
// the enterprise file, each workspace's project file, the user file, then Claude Code's
// settings files, read only when Cursor's third-party hooks are on.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookSource } from '../../advice/findings.js';
import { defaultHooksPath } from '../locate.js';

/** Cursor's machine-wide file per platform (docs snapshot; vgmartinez/tripcord wiki). */
const ENTERPRISE_FILES: Partial<Record<NodeJS.Platform, string>> = {
  darwin: '/Library/Application Support/Cursor/hooks.json',
  linux: '/etc/cursor/hooks.json',
  win32: 'C:\\ProgramData\\Cursor\\hooks.json',
};

/** The enterprise file of `platform`; undefined where Cursor has none. */
export function enterpriseHooksPath(
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  return ENTERPRISE_FILES[platform];
}

export interface SourceFile {
  readonly source: HookSource;
  readonly path: string;
  /** For a workspace's file: the workspace's position in the list given. */
  readonly workspace: number | undefined;
}

export interface SourceLocations {
  readonly home?: string;
  readonly hooksFile?: string;
  readonly workspaces?: readonly string[];
  /** null: no enterprise file is read (a platform without one). */
  readonly enterpriseFile?: string | null;
}

/** The files to read, in Cursor's order; paths only, nothing is looked at here. */
export function sourceFiles(locations: SourceLocations): SourceFile[] {
  const home = locations.home ?? homedir();
  const workspaces = locations.workspaces ?? [];
  const enterprise =
    locations.enterpriseFile === undefined ? enterpriseHooksPath() : locations.enterpriseFile;
  const inWorkspaces = (source: HookSource, ...names: string[]): SourceFile[] =>
    workspaces.map((dir, workspace) => ({ source, path: join(dir, ...names), workspace }));
  return [
    ...(enterprise == null
      ? []
      : [{ source: 'enterprise' as const, path: enterprise, workspace: undefined }]),
    ...inWorkspaces('project', '.cursor', 'hooks.json'),
    { source: 'user', path: locations.hooksFile ?? defaultHooksPath(home), workspace: undefined },
    ...inWorkspaces('claude-project-local', '.claude', 'settings.local.json'),
    ...inWorkspaces('claude-project', '.claude', 'settings.json'),
    { source: 'claude-user', path: join(home, '.claude', 'settings.json'), workspace: undefined },
  ];
}
