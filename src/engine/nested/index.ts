export { nestedIdentity, NestedStackProvider, nestedStacksOf } from './nested-stack-provider.js';
