// The public face of toolkit/bootstrap: cdkd's buckets in an account and region: making them, finding them, and where assets go.
export * from './asset-storage.js';
export * from './bootstrap.js';
export * from './cdkd-buckets.js';
export * from './state-history.js';
