/**
 * The readings (see string-lexeme.ts) of one document's strings, in document order, as the
 * budget pass made them, so the parser does not read a string's bytes a second time. A reading
 * serves only the bytes it was made for and only a string opening at the offset it was
 * recorded at; the parser reads any other string (and an invalid one, whose reading is
 * negative) itself.
 *
 * The budget pass stops one node past the node limit, so the record never holds more strings;
 * it grows by doubling and is reused from load to load, so a load allocates nothing per token.
 */
export class StringSpans {
  /** Per string: the offset of its opening quote, then its reading. */
  private slots = new Int32Array(2 * 256);
  private count = 0;
  private source: Uint8Array | undefined;

  /** Starts a record of the strings of `source`, dropping any earlier one. */
  start(source: Uint8Array): void {
    this.source = source;
    this.count = 0;
  }

  /** Drops the record, and with it the reference to its document. */
  forget(): void {
    this.source = undefined;
    this.count = 0;
  }

  add(open: number, reading: number): void {
    const slot = 2 * this.count++;
    if (slot === this.slots.length) {
      const grown = new Int32Array(2 * this.slots.length);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[slot] = open;
    this.slots[slot + 1] = reading;
  }

  /** The reading of the `index`th string of `source` if it opens at `open`; else negative. */
  reading(source: Uint8Array, index: number, open: number): number {
    if (source !== this.source || index >= this.count || this.slots[2 * index] !== open) return -1;
    return this.slots[2 * index + 1] as number;
  }
}
