import { bufferOf, CR, LF } from './bytes.js';
import { canonicalString } from './canonical.js';
import { hasItems, lastChildOfKind, nearestStep, type Shape, shapeOf } from './layout.js';
import { type JsonObject, Tag, type Tape } from './tree.js';

/** A value this library writes: only plain JSON data, never anything taken from the document. */
export type PlainJson =
  | string
  | number
  | boolean
  | null
  | readonly PlainJson[]
  | { readonly [key: string]: PlainJson };

/**
 * How the document writes itself as a whole: its line end and its root's shape, which new
 * containers take when no neighbour shows a nearer one. For a document that is exactly
 * `JSON.stringify(v, null, indent)` every shape in it agrees, so inserted values come out as
 * that function writes them.
 */
export interface Layout {
  /** Line end: CRLF when the document's first line end is CRLF. */
  readonly eol: string;
  readonly root: Shape;
}

/** The layout of a new file: `JSON.stringify(doc, null, 2)`. */
export const NEW_FILE_LAYOUT: Layout = {
  eol: '\n',
  root: { lines: true, step: '  ', open: '', comma: '', close: '', colon: ': ' },
};

const ONE_LINE: Shape = { lines: false, step: '', open: '', comma: '', close: '', colon: ':' };

/** The document's line end and its root's shape: what new text falls back on. */
export function detectLayout(bytes: Uint8Array, root: JsonObject): Layout {
  const newline = bufferOf(bytes).indexOf(LF);
  const eol = newline > 0 && bytes[newline - 1] === CR ? '\r\n' : '\n';
  return { eol, root: hasItems(root.tape, root.index) ? shapeOf(root.tape, root.index) : ONE_LINE };
}

/**
 * Where new text takes its shape: the document's tape (absent for a new file) and the shape
 * for containers that have nothing to copy, found only if one needs it.
 */
export class Writer {
  private fallback: Shape | undefined;

  constructor(
    private readonly layout: Layout,
    private readonly tape: Tape | undefined,
    /** The container being edited: the nearest lines above it give the fallback step. */
    private readonly anchor: number,
  ) {}

  get eol(): string {
    return this.layout.eol;
  }

  /**
   * Nothing to copy: step like the nearest container that writes lines (so a compact
   * `"hooks":{}` island in a pretty file gets the file's form), else the root's one-line form.
   */
  defaultShape(): Shape {
    if (this.fallback !== undefined) return this.fallback;
    const { root } = this.layout;
    const step = this.tape === undefined ? undefined : nearestStep(this.tape, this.anchor);
    this.fallback = step === undefined ? root : { ...root, lines: true, step };
    return this.fallback;
  }

  /**
   * The shape of `model`, else the default. A model is -1 or a non-empty container of the
   * kind being written: modelFor, twinOf and lastChildOfKind return nothing else.
   */
  shapeFrom(model: number): Shape {
    return model >= 0 ? shapeOf(this.tape as Tape, model) : this.defaultShape();
  }

  /**
   * Renders `value` for a line indented by `indent`, copying `model` (a tape index, or -1):
   * each container takes the shape of its model, and its children copy the model's last child
   * of their own kind, so a new entry looks like the entry it follows.
   */
  render(value: PlainJson, model: number, indent: string): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    const array = isArray(value);
    const shape = this.shapeFrom(model);
    const inner = shape.lines ? indent + shape.step : indent;
    const child = (item: PlainJson) => {
      const itemTag = containerTag(item);
      const itemModel =
        model >= 0 && itemTag !== undefined
          ? lastChildOfKind(this.tape as Tape, model, itemTag)
          : -1;
      return this.render(item, itemModel, inner);
    };
    const items = array
      ? value.map(child)
      : Object.entries(value).map(
          ([key, item]) => canonicalString(key) + shape.colon + child(item),
        );
    const [open, close] = array ? ['[', ']'] : ['{', '}'];
    return open + this.join(items, shape, indent) + close;
  }

  /** The text between the brackets of a container with `shape` on a line indented by `indent`. */
  join(items: readonly string[], shape: Shape, indent: string): string {
    if (items.length === 0) return '';
    if (!shape.lines) return shape.open + items.join(`,${shape.comma}`) + shape.close;
    const inner = this.eol + indent + shape.step;
    return inner + items.join(`,${inner}`) + this.eol + indent;
  }
}

/**
 * Renders `value` as it would appear on a line indented by `indent` in a document laid out
 * like `layout`, with nothing to copy: nested lines are indented one step deeper each, exactly
 * as JSON.stringify does (without its 10-character cap on the indent string).
 */
export function renderValue(value: PlainJson, layout: Layout, indent: string): string {
  return new Writer(layout, undefined, -1).render(value, -1, indent);
}

function isArray(value: PlainJson): value is readonly PlainJson[] {
  return Array.isArray(value);
}

/** The tag a value would have on the tape, for containers. */
export function containerTag(value: PlainJson): Tag | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return isArray(value) ? Tag.Array : Tag.Object;
}

/** Nodes as the limits count them: every container, every object key, every scalar. */
export function countNodes(value: PlainJson): number {
  if (value === null || typeof value !== 'object') return 1;
  const children = isArray(value)
    ? value.map(countNodes)
    : Object.values(value).map((item) => 1 + countNodes(item));
  return children.reduce((sum, count) => sum + count, 1);
}
