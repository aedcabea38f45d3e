// The public face of toolkit/recovery: putting a failed run right: rollback of a pending journal, scrub of what it left.
export * from './rollback-app.js';
export * from './scrub.js';
