// The public face of src/messages: the IO host, its messages and questions, and their payloads.
export type { MessageCode, MessagePayloads, QuestionCode, QuestionPayloads } from './codes.js';
export {
  confirmPlan,
  eventMessage,
  type AnyIoMessage,
  ioMessage,
  ioQuestion,
  levelOf,
  type CommandName,
  type IoHost,
  type IoMessage,
  type IoQuestion,
  type MessageLevel,
} from './io-host.js';
export type {
  ApprovalRequest,
  DataLossConfirmation,
  DeployEvent,
  DeployPhase,
  DeploySchedule,
  FailedOutput,
  OutputChange,
  ResourceAction,
  StackDeployResult,
} from './payloads/deploy.js';
export type { PropertyDrift, ResourceDrift } from './payloads/drift.js';
export type { CleanOutcome, Leftover } from './payloads/scrub.js';
// Types only: the stream's module loads zod, which a command loads only when it streams events.
export type { ProgressEvent, ProgressRun } from './progress-events.js';
