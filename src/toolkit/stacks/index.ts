// The public face of toolkit/stacks: the assembly's stacks made into requests: selection, parameters, tags, routing, the checks before any runs.
export * from './empty-stacks.js';
export * from './preflight.js';
export * from './routing-flags.js';
export * from './stack-parameters.js';
export * from './stack-requests.js';
export * from './stack-tags.js';
export * from './stacks-failed.js';
