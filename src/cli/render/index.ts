// The public face of src/cli/render: how results, events and errors are printed or written to a file.
export * from './html-file.js';
export * from './leftover-text.js';
export * from './outputs-file.js';
export * from './render-destroyed.js';
export * from './render-error.js';
export * from './render-events.js';
export * from './render-outputs.js';
export * from './render-review.js';
export * from './render-stacks.js';
export * from './render-state.js';
