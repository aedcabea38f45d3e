import type { ContextQuery, LookupResult } from '../assembly/index.js';
import type { QueryClient } from './query-clients.js';

/** One kind of context lookup: a query in, the value the CDK CLI would cache out. */
export type Provider = (client: QueryClient, query: ContextQuery) => Promise<LookupResult>;

/** A lookup whose answer cannot be used (none or several matches); its message is the CDK CLI's. */
export class LookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LookupError';
  }
}
