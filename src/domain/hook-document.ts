import { Buffer } from 'node:buffer';
import { AbsenceUnprovenError, ConflictError, UnsupportedError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import { digestOf } from '../json/digest.js';
import {
  appendElement,
  appendMember,
  type ByteEdit,
  removeElement,
  replaceNode,
} from '../json/edit.js';
import { countNodes, detectLayout, NEW_FILE_LAYOUT, renderValue } from '../json/format.js';
import { assertOutputWithinLimits, loadJson } from '../json/load.js';
import { isExactlyOne } from '../json/number.js';
import { parseJson } from '../json/parse.js';
import { positionAt } from '../json/position.js';
import { spliceBytes } from '../json/splice.js';
import {
  type JsonArray,
  type JsonNode,
  type JsonObject,
  memberValue,
  Tag,
  type Tape,
} from '../json/tree.js';
import type { OwnedEntry } from './owned-entry.js';

const STOP = 'stop';

/** One entry whose decoded `command` equals a given command, wherever it sits in `hooks`. */
export interface Occurrence {
  readonly event: string;
  readonly array: JsonArray;
  /** Position of the entry within its event array. */
  readonly position: number;
  readonly entry: JsonNode;
}

/**
 * An absent file proves the same remainder as a file holding only `{"version":1}`. Worked out on
 * first use, not at load: most calls read a file that exists and never need it.
 */
let emptyRemainder: string | undefined;

function remainderOfEmptyFile(): string {
  emptyRemainder ??= digestOf('remainder', parseJson(Buffer.from('{"version":1}', 'utf8')));
  return emptyRemainder;
}

/** Whether every element of an array, or every member value of an object, is in `omit`. */
function allOmitted(tape: Tape, container: number, omit: ReadonlySet<number>): boolean {
  let all = true;
  const check = (child: number) => {
    all &&= omit.has(child);
  };
  if (tape.tag(container) === Tag.Array) tape.eachElement(container, check);
  else tape.eachMember(container, (_, value) => check(value));
  return all;
}

/**
 * Cursor's hook file as a native document: a root object with numeric version 1, an optional
 * `hooks` object whose members are all arrays, and opaque entries. It answers ownership
 * questions and produces edited bytes; it never changes the bytes it was read from.
 */
export class HookDocument {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly root: JsonObject | undefined,
    private readonly hooks: JsonObject | undefined,
  ) {}

  /** Empty bytes are the absent file; anything else must be a valid native document. */
  static read(bytes: Uint8Array): HookDocument {
    if (bytes.length === 0) return new HookDocument(bytes, undefined, undefined);
    const tree = loadJson(bytes);
    const { root } = tree;
    // A value refused for its kind is refused at its first byte.
    const refuse = (reason: ErrorReason, start: number) =>
      new UnsupportedError(reason, { at: positionAt(bytes, start) });
    if (root.kind !== 'object') throw refuse('root-not-object', root.start);
    const version = memberValue(root, 'version');
    if (version === undefined) throw new UnsupportedError('version-missing');
    if (version.kind !== 'number' || !isExactlyOne(version.lexeme)) {
      throw refuse('version-unsupported', version.start);
    }
    const hooks = memberValue(root, 'hooks');
    if (hooks !== undefined && hooks.kind !== 'object') {
      throw refuse('hooks-not-object', hooks.start);
    }
    hooks?.tape.eachMember(hooks.index, (_, event) => {
      const { tape } = hooks;
      if (tape.tag(event) !== Tag.Array) throw refuse('event-not-array', tape.start(event));
    });
    return new HookDocument(bytes, root, hooks);
  }

  /** Every entry, in every event, whose string `command` member equals `command`. */
  occurrences(command: string): Occurrence[] {
    const found: Occurrence[] = [];
    const { hooks } = this;
    if (hooks === undefined) return found;
    const { tape } = hooks;
    tape.eachMember(hooks.index, (event, array) => {
      tape.eachElement(array, (entry, position) => {
        if (tape.tag(entry) !== Tag.Object) return;
        const candidate = tape.member(entry, 'command');
        if (candidate < 0 || tape.tag(candidate) !== Tag.String) return;
        if (!tape.stringEquals(candidate, command)) return;
        found.push({
          event: tape.stringValue(event),
          array: tape.node(array) as JsonArray,
          position,
          entry: tape.node(entry),
        });
      });
    });
    return found;
  }

  /**
   * The single intact owned entry: its command occurs exactly once in all of `hooks`, in
   * `stop`, and its full entry digest matches. Position inside `stop` is not identity.
   */
  locateOwner(owned: OwnedEntry): Occurrence {
    const found = this.occurrences(owned.command);
    const [owner] = found;
    if (owner === undefined) throw new AbsenceUnprovenError('owner-absent');
    if (found.length > 1) throw new ConflictError('owner-duplicated');
    if (owner.event !== STOP) throw new ConflictError('owner-outside-stop');
    if (digestOf('entry', owner.entry) !== owned.digest) {
      throw new ConflictError('owner-modified');
    }
    return owner;
  }

  /** Refuses if `command` occurs anywhere in `hooks` other than at `except`. */
  assertCommandFree(command: string, except?: Occurrence): void {
    const others = this.occurrences(command).filter(
      (found) => found.entry.index !== except?.entry.index,
    );
    if (others.length > 0) {
      throw new ConflictError(except === undefined ? 'command-exists' : 'command-collision');
    }
  }

  /**
   * Digest of everything but the owned entry: the root without `owner`, then without a `stop`
   * holding an empty array, then without a `hooks` holding an empty object. Nothing else is
   * normalised, so a foreign `"future": []` stays significant.
   */
  remainderDigest(owner?: Occurrence): string {
    const { root, hooks } = this;
    if (root === undefined) return remainderOfEmptyFile();
    const omit = new Set<number>();
    if (owner !== undefined) omit.add(owner.entry.index);
    if (hooks !== undefined) {
      const { tape } = hooks;
      const stop = tape.member(hooks.index, STOP);
      if (stop >= 0 && allOmitted(tape, stop, omit)) omit.add(stop);
      if (allOmitted(tape, hooks.index, omit)) omit.add(hooks.index);
    }
    return digestOf('remainder', root, omit);
  }

  /** Appends the entry last in `stop`, creating `stop`, `hooks` or the whole file as needed. */
  appendEntry(owned: OwnedEntry): Uint8Array {
    if (this.root === undefined) {
      const document = { version: 1, hooks: { stop: [owned.value] } };
      // TextEncoder, not Buffer.from: a small Buffer may sit in a shared pool, and a result's
      // `.buffer` must never expose other memory.
      const text = `${renderValue(document, NEW_FILE_LAYOUT, '')}\n`;
      return this.checked(new TextEncoder().encode(text), countNodes(document));
    }
    const { bytes, root, hooks } = this;
    const layout = detectLayout(bytes, root);
    const stop = hooks && memberValue(hooks, STOP);
    if (stop !== undefined) {
      return this.apply(appendElement(bytes, layout, stop as JsonArray, owned.value));
    }
    if (hooks !== undefined) {
      return this.apply(appendMember(bytes, layout, hooks, STOP, [owned.value]));
    }
    return this.apply(appendMember(bytes, layout, root, 'hooks', { stop: [owned.value] }));
  }

  /** Replaces the owner at its current position. */
  replaceEntry(owner: Occurrence, owned: OwnedEntry): Uint8Array {
    const layout = detectLayout(this.bytes, this.root as JsonObject);
    return this.apply(replaceNode(this.bytes, layout, owner.entry, owned.value));
  }

  /** Removes only the owner, leaving `stop: []` and `hooks: {}` in place. */
  removeEntry(owner: Occurrence): Uint8Array {
    return this.apply(removeElement(owner.array, owner.position));
  }

  private apply(edit: ByteEdit): Uint8Array {
    return this.checked(spliceBytes(this.bytes, edit), this.nodes() + edit.nodes);
  }

  private checked(output: Uint8Array, nodes: number): Uint8Array {
    assertOutputWithinLimits(output.length, nodes);
    return output;
  }

  /** The document's node count: the root's subtree on the tape. */
  private nodes(): number {
    return this.root === undefined ? 0 : this.root.tape.subtreeSize(this.root.index);
  }
}
