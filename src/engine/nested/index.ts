export {
  NESTED_STACK_TYPE,
  nestedIdentity,
  NestedStackProvider,
  nestedStacksOf,
} from './nested-stack-provider.js';
