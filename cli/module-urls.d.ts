import type { Plugin } from 'esbuild'

export declare const keepModuleUrls: Plugin
