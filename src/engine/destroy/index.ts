export { refuseUnknownOrphans } from './destroy-orphans.js';
export { type DestroyOptions, destroyStack, type StackDestroyResult } from './destroy-stack.js';
