// The check no single file shows: Cursor runs every matching hook of every source, so one
// command for one event in two sources runs twice (akitaonrails/ai-memory#721; usalu/semio#638).
import { compareFindings, type Finding, type HookSource, SOURCES } from './findings.js';
import { type CommandSite, finding, type Inspection } from './inspection.js';

/** One source as read: which it is, for a workspace's which workspace, and what it holds. */
export interface SourceInspection {
  readonly source: HookSource;
  readonly workspace: number | undefined;
  readonly inspection: Inspection;
}

/**
 * `command-in-two-sources` on the lower-ranked of each pair. Our own command is left out: its
 * copies are `owned-elsewhere` already. Two workspaces never share a window, so their files are
 * compared only with their own and the machine-wide sources.
 */
export function acrossSources(
  sources: readonly SourceInspection[],
  ownedCommand: string | undefined,
): Finding[] {
  const ranked = [...sources].sort(
    (a, b) =>
      SOURCES.indexOf(a.source) - SOURCES.indexOf(b.source) ||
      (a.workspace ?? -1) - (b.workspace ?? -1),
  );
  const earlier: { readonly from: SourceInspection; readonly site: CommandSite }[] = [];
  const findings: Finding[] = [];
  for (const from of ranked) {
    const here: typeof earlier = [];
    for (const site of from.inspection.sites) {
      if (site.cursorEvent === undefined || site.command === ownedCommand) continue;
      const first = earlier.find(
        (other) =>
          other.site.cursorEvent === site.cursorEvent &&
          other.site.command === site.command &&
          (other.from.workspace === undefined ||
            from.workspace === undefined ||
            other.from.workspace === from.workspace),
      );
      if (first !== undefined) findings.push(twice(from, site, first.from));
      here.push({ from, site });
    }
    earlier.push(...here);
  }
  return findings.sort(compareFindings);
}

function twice(from: SourceInspection, site: CommandSite, other: SourceInspection): Finding {
  return finding('command-in-two-sources', 'fires-twice', from.source, {
    ...workspaceOf(from.workspace),
    ...site.at,
    also: other.source,
    ...(other.workspace === undefined ? {} : { alsoWorkspace: other.workspace }),
  });
}

export const workspaceOf = (workspace: number | undefined): { workspace?: number } =>
  workspace === undefined ? {} : { workspace };
