export { sharedWarning } from './import-checks.js';
export {
  importCandidates,
  type ImportCandidate,
  type ImportChoice,
  type ImportedResource,
  type ImportOptions,
  importStack,
} from './import-stack.js';
