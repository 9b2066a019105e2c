// The demo's own view of a hooks file: plain JSON, edited the way another tool would edit it.

export interface HookFile {
  readonly version: number;
  readonly hooks: Readonly<Record<string, readonly unknown[]>>;
}

/** A fixture's layout: the indent unit and line end it was serialized with. */
export interface Layout {
  readonly indent: string;
  readonly eol: string;
}

export function parseHookFile(text: string): HookFile {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || !('hooks' in value)) {
    throw new Error('the demo document has no hooks member');
  }
  return value as HookFile;
}

/**
 * `JSON.stringify` with the layout's indent and line ends, plus a final line end. For input in
 * this shape the planner promises output in the same shape, so expected bytes can be computed.
 */
export function serialize(file: HookFile, layout: Layout): string {
  return `${JSON.stringify(file, null, layout.indent).replaceAll('\n', layout.eol)}${layout.eol}`;
}

export function appendEntry(file: HookFile, event: string, entry: unknown): HookFile {
  return { ...file, hooks: { ...file.hooks, [event]: [...(file.hooks[event] ?? []), entry] } };
}

/** Maps the stop entries whose command is `command`; `undefined` drops the entry. */
export function mapOwned(
  file: HookFile,
  command: string,
  map: (entry: object) => object | undefined,
): HookFile {
  const stop = (file.hooks.stop ?? []).flatMap((entry) => {
    if (!isCommandEntry(entry) || entry.command !== command) return [entry];
    const mapped = map(entry);
    return mapped === undefined ? [] : [mapped];
  });
  return { ...file, hooks: { ...file.hooks, stop } };
}

/** The one entry shape the planner ever writes (SPEC §1). */
export function ownedEntry(command: string): object {
  return { type: 'command', command, timeout: 5, failClosed: false };
}

function isCommandEntry(entry: unknown): entry is { readonly command: unknown } {
  return typeof entry === 'object' && entry !== null && 'command' in entry;
}
