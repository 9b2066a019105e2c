// The global `performance` as the CLI bundle sees it (scripts/build-cli.mjs injects this file for
// it): Node builds the real one on first use, loading perf_hooks and eight more modules, about
// 1 ms of every call that locks. The kit reads only now(), and only differences of it, so the
// process's monotonic clock serves; the build fails if a source reads anything else of it.
export const performance: { now(): number } = {
  now: () => Number(process.hrtime.bigint()) / 1e6,
};
