/**
 * Bad usage or an unreadable request: exit 2 with one line on stderr. Messages are fixed text
 * and never quote the arguments or the request, which may hold paths or control characters.
 */
export class UsageError extends Error {}
