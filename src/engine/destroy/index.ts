export { refuseUnknownOrphans } from './destroy-orphans.js';
export { refuseProtectedStacks } from './termination-protection.js';
export { type DestroyOptions, destroyStack, type StackDestroyResult } from './destroy-stack.js';
