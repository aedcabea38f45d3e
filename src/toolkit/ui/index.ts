// The public face of toolkit/ui: the data the local web page shows: stacks, graphs, timelines, the pending diff.
export * from './ui-data.js';
export * from './ui-diff.js';
export * from './ui-service-data.js';
export * from './ui-types.js';
