// How a node:fs call is run, given both of its forms: on libuv's thread pool (the callback form)
// or synchronously. The seam and the lease beat share these, and the open flags the kit uses.
import { constants } from 'node:fs';

/** Runs a node:fs call given both ways; either way the caller gets a promise that a failure rejects. */
export type Runner = <T>(
  withCallback: (...args: never[]) => void,
  synchronous: (...args: never[]) => T,
  ...args: unknown[]
) => Promise<T>;

export const onThreadPool: Runner = (withCallback, _, ...args) =>
  new Promise((resolve, reject) => {
    (withCallback as (...args: unknown[]) => void)(...args, (err: Error | null, value: never) =>
      err ? reject(err) : resolve(value),
    );
  });

export const blocking: Runner = (_, synchronous, ...args) => {
  try {
    return Promise.resolve((synchronous as (...args: unknown[]) => never)(...args));
  } catch (err) {
    return Promise.reject(err);
  }
};

/**
 * Open flags the kit uses; O_NONBLOCK and O_NOFOLLOW are 0 where the platform lacks them
 * (Windows), where the lstat before a record's open is the only guard against a link.
 */
export const FLAGS = {
  read: constants.O_RDONLY | (constants.O_NONBLOCK ?? 0),
  /** A lock record: never through a symlink, never waiting on a FIFO. */
  readNoFollow: constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0),
  createExclusive: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  directory: constants.O_RDONLY,
} as const;
