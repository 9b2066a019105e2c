// The types of build-observer.mjs's exports, for the tests that build with the same options.
import type { BuildOptions } from 'esbuild';

export declare const observerBuild: BuildOptions;
export declare const observerCommonJsBuild: BuildOptions;
export declare function commonJsTypes(): string;
