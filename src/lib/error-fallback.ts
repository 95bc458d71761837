/**
 * docs/product.md#errors: the last fallback of every failure shown (API client, flows, auth
 * screens). TEXTS.errorFallback (./texts) is this sentence; it lives apart because the sign-in
 * screen's JavaScript needs it and ./texts quotes whole contract modules (decision 072).
 */
export const ERROR_FALLBACK = 'An error occurred';
