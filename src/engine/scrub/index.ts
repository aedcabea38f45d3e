export { orphanResources, type OrphanResult } from './orphan-resources.js';
export { cleanLeftover, type CleanOutcome, findLeftovers, type Leftover } from './scrub.js';
