// Side effects only (see quiet-client-aborts.mjs).
export {};
