// Types for the TypeScript that imports the build (electron.vite.config.ts).
import type { Plugin } from 'esbuild';

export declare const EXTERNAL: string[];
export declare const lazyCssom: Plugin;
export declare function buildHtmlWorker(outDir: string, opts?: { quiet?: boolean }): Promise<void>;
export declare function buildCli(opts?: { quiet?: boolean }): Promise<void>;
