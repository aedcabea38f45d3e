// The public face of toolkit/bootstrap: cdkd's buckets in an account and region: making them, finding them, and where assets go.
export * from './asset-events.js';
export * from './asset-storage.js';
export * from './bootstrap.js';
export * from './cdkd-buckets.js';
export * from './role-names.js';
export * from './role-plan.js';
export * from './roles.js';
export * from './state-history.js';
