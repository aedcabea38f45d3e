// The public face of src/toolkit: other top-level folders import it through this file (test/structure).
export * from './bootstrap/index.js';
export * from './deploy/index.js';
export * from './destroy/index.js';
export * from './import/index.js';
export * from './recovery/index.js';
export * from './session/index.js';
export * from './stacks/index.js';
export * from './state/index.js';
export * from './ui/index.js';
