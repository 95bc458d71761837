/** See run-apart.mjs. */
export declare const RUN_APART: string[];
export declare const ALONE_ON_POSTGRES: string[];
