import type { CleanOutcome, Leftover } from './payloads/scrub.js';
import type {
  ApprovalRequest,
  DataLossConfirmation,
  DeployEvent,
  StackDeployResult,
} from './payloads/deploy.js';
import type { ResourceDrift } from './payloads/drift.js';

/**
 * Each message code and its payload. A code is `CDKD_` + the level's letter (I info, W warn,
 * E error, D debug, R result) + four digits, the first naming the area: 1 the app and its
 * synthesis, 2 deploying stacks, 3 rollback, 4 destroy, orphan and scrub, 5 drift and import,
 * 9 any command. A code is never reused for another payload.
 */
export interface MessagePayloads {
  /** A chunk the app wrote to stdout or stderr while synthesizing. */
  CDKD_I1000: { chunk: string };
  /** A resource's operation started, finished, failed or was skipped. */
  CDKD_I2000: Extract<DeployEvent, { kind: 'resource' }>;
  /** A stack's deploy or destroy started or ended. */
  CDKD_I2001: Extract<DeployEvent, { kind: 'stack' }>;
  /** How long a phase of a stack's deploy took (`--verbose`). */
  CDKD_D2002: Extract<DeployEvent, { kind: 'phase' }>;
  /** A stack finished deploying (or planning, for a dry run). */
  CDKD_R2003: StackDeployResult;
  /** A step of a rollback (automatic or `cdkd rollback`) succeeded, was skipped or failed. */
  CDKD_I3000: Extract<DeployEvent, { kind: 'rollback' }>;
  /** What `cdkd scrub` found left in the state bucket. */
  CDKD_R4000: { leftovers: Leftover[] };
  /** What cleaning one leftover came to. */
  CDKD_R4001: { leftover: Leftover; outcome: CleanOutcome };
  /** How a stack's recorded resources differ from AWS. */
  CDKD_R5000: { stackName: string; region: string; drift: ResourceDrift[] };
  /** Something needs a person's attention; `stack` when it concerns one. */
  CDKD_W9000: { stack?: string };
  /** A line of information between the events (a skipped stack, an asset published ...). */
  CDKD_I9001: { stack?: string };
}

/** Each question code, what it shows and what it answers. Codes as for messages, letter Q. */
export interface QuestionPayloads {
  /** Deploy a stack whose recreated resources lose data? (spec 002's recreate prompt) */
  CDKD_Q2100: { data: DataLossConfirmation; answer: boolean };
  /** Deploy a stack whose changes `--require-approval` stops for (permissions widening, or any change)? */
  CDKD_Q2101: { data: ApprovalRequest; answer: boolean };
  /** Destroy these stacks' resources, leaving the `--orphan` ones in AWS? */
  CDKD_Q4000: { data: { stacks: string[]; orphan: string[] }; answer: boolean };
  /** Clean this leftover `cdkd scrub` found (delete a stale lock, settle a journal)? */
  CDKD_Q4100: { data: Leftover; answer: boolean };
  /** Import this AWS resource the template's names found, under its logical id? */
  CDKD_Q5100: { data: { logicalId: string; physicalId: string; type: string }; answer: boolean };
  /**
   * A yes/no question with the lines it is about (a rollback plan, a lock to remove ...):
   * with a heading, the lines are a list under it.
   */
  CDKD_Q9000: { data: { heading?: string; lines: string[] }; answer: boolean };
  /** Delete this stack's lock, held by `holder` (`cdkd force-unlock`)? */
  CDKD_Q9100: { data: { stackName: string; region: string; holder: string }; answer: boolean };
  /** The current code of MFA device `serial`, which the profile's role asks for. */
  CDKD_Q9200: { data: { serial: string; profile?: string }; answer: string };
}

export type MessageCode = keyof MessagePayloads;
export type QuestionCode = keyof QuestionPayloads;
