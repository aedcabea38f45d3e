import { describe } from 'vitest';
import { describeCorpus } from '../template/corpus-support.js';
import { corpusPass } from './corpus-pass.js';

describeCorpus('CDK integration-test corpus, deployed to the sandbox', () => {
  describe('through the SDK providers (defaultRegistry)', () => corpusPass('sdk'));
});
