export { afterFailedDeploy, generationOf, settleJournal } from './deploy-outcome.js';
export { dropFailedSegments, type DropFailedRequest, type DropFailedResult } from './drop-failed.js';
export { refuseAfterFailedRollback } from './failed-rollback-guard.js';
export { journalNote, settleMadeResources } from './journal-lifetime.js';
export { reconcileSegments, unsettledInFlight } from './locate-in-flight.js';
export { gatherMadeFacts } from './made-facts.js';
export {
  type NamePrefixFallback,
  replayServices,
  type RollbackRequest,
  rollbackStack,
  type StackRollbackResult,
} from './rollback-stack.js';
export { RunJournal } from './run-journal.js';
export { settleStaleRecords } from './stale-records.js';
export { openJournalOrSetAside, unreadableWarning } from './unreadable-journal.js';
