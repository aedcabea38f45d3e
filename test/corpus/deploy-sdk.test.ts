import { describe } from 'vitest';
import { corpusPass } from './corpus-pass.js';

describe('CDK integration-test corpus, deployed to the sandbox', () => {
  describe('through the SDK providers (defaultRegistry)', () => corpusPass('sdk'));
});
