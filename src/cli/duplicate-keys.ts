// JSON.parse keeps the last of two equal keys, so `{"operation":"install","operation":"remove"}`
// would run a remove. Documents refuse repeated keys; requests must too.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether any object in `text` repeats a key, keys compared as decoded strings (`"a"` and
 * `"\u0061"` are one key). `text` must already have parsed as JSON: this is one linear pass over
 * its structure, not a validator.
 */
export function repeatsKey(text: string): boolean {
  // One set of keys per open object; null for an open array.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      while (text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      const keys = open.at(-1);
      if (keyNext && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === 0x7b) {
      open.push(new Set());
      keyNext = true;
    } else if (c === 0x5b) {
      open.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      keyNext = open.at(-1) != null;
    }
  }
  return false;
}
