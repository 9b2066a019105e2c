// An existing empty file is an editor's in-place save caught between truncate and write as
// often as it is a real empty file: the reader takes a second look before anyone plans on it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSnapshot } from '../../src/node/write/read.js';
import { decode, tempDir, wrapSeam } from './support.js';

const SAVED = '{"version":1,"hooks":{"stop":[{"command":"theirs"}]}}\n';

describe('an existing empty file', () => {
  it('is read again after the settle delay, or a save in progress is planned on as empty', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '');
    // The editor's write lands while the reader waits.
    const saving = new Promise<void>((done) =>
      setTimeout(() => {
        writeFileSync(path, SAVED);
        done();
      }, 10),
    );
    const snapshot = await readFileSnapshot(path, undefined, { emptySettleMs: 200 });
    await saving;
    expect(decode(snapshot.bytes)).toBe(SAVED);
  });

  it('stays present and empty when nothing arrives, or an empty file reads as absent', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '');
    const snapshot = await readFileSnapshot(path, undefined, { emptySettleMs: 5 });
    expect(snapshot).toMatchObject({ exists: true, bytes: new Uint8Array(0) });
  });

  it('waits by default, or hosts that set nothing plan on the empty moment', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, '');
    let opens = 0;
    const fs = wrapSeam((call) => {
      if (call === 'open') opens++;
    });
    await readFileSnapshot(path, fs);
    expect(opens).toBe(2);
  });

  it('reads a non-empty file once, or every read pays the delay', async () => {
    const path = join(tempDir(), 'hooks.json');
    writeFileSync(path, SAVED);
    let opens = 0;
    const fs = wrapSeam((call) => {
      if (call === 'open') opens++;
    });
    await readFileSnapshot(path, fs, { emptySettleMs: 10_000 });
    expect(opens).toBe(1);
  });
});
