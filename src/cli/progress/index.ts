// The public face of src/cli/progress: the live progress view of a deploy or destroy, and its ETA line.
export * from './progress-eta.js';
export * from './progress-mode.js';
export * from './progress-stream.js';
export * from './progress-view.js';
export * from './progress.js';
