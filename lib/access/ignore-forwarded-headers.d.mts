// Side effects only (see ignore-forwarded-headers.mjs).
export {};
