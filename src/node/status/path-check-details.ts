// The fixed sentences of the host path checks (SPEC §11). A report carries the path beside the
// sentence, never inside it, so hosts can show, log or match a detail without quoting the path.

/** Why a check failed. */
export const FAILED_DETAILS = {
  notAbsolute: 'The path is not absolute, so what it names depends on the working directory.',
  missing: 'Nothing exists at this path.',
  accessDenied: 'Permission to look at this path was denied.',
  componentNotDirectory: 'A component of this path is not a directory.',
  unexaminable: 'This path could not be examined.',
  symlink: 'This is a symbolic link; the checks do not follow links.',
  notDirectory: 'This is not a directory.',
  directory: 'This is a directory, not a regular file.',
  specialFile: 'This is a FIFO, socket or device, not a regular file.',
  directoryWritableByOthers:
    'Group or other users can write to this directory, and it is not a sticky directory owned by root.',
  directoryNotOwned: 'This directory is owned by neither the current user nor root.',
  executableNotOwned: 'This file is owned by neither the current user nor root.',
  selectorNotOwned: 'This file is not owned by the current user.',
  noUserExecuteBit: "This file lacks its owner's execute permission.",
  fileWritableByOthers: 'Group or other users can write to this file.',
  tooLarge: 'This file is larger than the selector size bound.',
} as const;

/** Why a check could not be measured; such a check never counts as passed. */
export const NOT_PERFORMED_DETAILS = {
  windowsAcl:
    'Not measured: on Windows, ownership and permissions are access control lists, which Node cannot read.',
  noUserId: 'Not measured: the platform gives Node no numeric user id.',
  earlierFailure: 'Not measured: an earlier check on this path failed.',
} as const;
