/** See run-apart.mjs. */
export declare const RUN_APART: string[];
