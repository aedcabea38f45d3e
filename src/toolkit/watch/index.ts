// The public face of toolkit/watch: `cdkd watch`, its change detection and its queue.
export * from './changed-stacks.js';
export * from './file-watcher.js';
export * from './log-tail.js';
export * from './reload-on-change.js';
export * from './run-queue.js';
export * from './watch-app.js';
export * from './watch-globs.js';
export * from './watch-settings.js';
