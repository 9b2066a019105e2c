// The types of build-observer.mjs's export, for the test that builds with the same options.
import type { BuildOptions } from 'esbuild';

export declare const observerBuild: BuildOptions;
