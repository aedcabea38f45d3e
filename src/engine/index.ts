// The public face of src/engine: the types the toolkit takes from the engine. Types only, so
// importing it loads nothing; engine.ts loads each command's folder when that command runs.
export type { Engine } from './engine.js';
export type { StackIdentity } from './engine-context.js';
export type { EventSink } from './events.js';
export type { DeployOptions, NestedTemplate, SavedStackPlan, StackRequest } from './stack-request.js';
export type { StackDeployResult } from './deploy/index.js';
export type { StackDestroyResult } from './destroy/index.js';
export type { DriftMode, DriftResult, RefreshResult } from './drift/index.js';
export type { ImportCandidate, ImportChoice, ImportedResource } from './import/index.js';
export type { DropFailedResult, NamePrefixFallback, StackRollbackResult } from './journal/index.js';
export type { CleanOutcome, Leftover, OrphanResult } from './scrub/index.js';
