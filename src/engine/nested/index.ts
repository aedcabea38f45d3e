export {
  nestedIdentity,
  NestedStackProvider,
  nestedStackId,
  nestedStacksOf,
} from './nested-stack-provider.js';
