import type { PlannedOperation, RegistryAnswer } from '../../plan/index.js';
import type { Provider, ResourceRequest } from '../../providers/index.js';
import type { ResourceRecord } from '../../state/index.js';
import type { ExternalResolver, PreparedTemplate } from '../../template/index.js';
import type { ProviderCalls } from '../../provider-calls/index.js';
import type { StackState } from '../../stack-state/index.js';
import type { EventSink } from '../events.js';
import type { LiveAttributes } from '../planning/index.js';
import type { InFlightFact, OperationDraft, OperationObserver } from './observer.js';
import type { StepObserver } from './resource-steps.js';

/** How to evaluate a resource's properties; absent for a destroy, which only deletes. */
export interface Evaluation {
  /** The template with real parameter values: what is sent. */
  prepared: PreparedTemplate;
  /** The same template with NoEcho values masked: what is stored. */
  masked: PreparedTemplate;
  /** Answers NoEcho Data in clear: evaluates what is sent. */
  resolver: ExternalResolver;
  /** The same answers with NoEcho Data masked: evaluates what is stored. */
  maskedResolver: ExternalResolver;
  /** Reads the attributes a record lacks live (spec 002); absent, the records alone answer. */
  live?: LiveAttributes;
}

export interface ExecutorServices extends ProviderCalls {
  state: StackState;
  evaluation?: Evaluation;
  /** Resolves `{{resolve:...}}` dynamic references just before a value is sent. */
  sendable(properties: Record<string, unknown>): Promise<Record<string, unknown>>;
  events: EventSink;
  /** Hears each mutation before it is sent and after (the run's write-ahead journal); absent where nothing is journaled. */
  observer?: OperationObserver;
  /** Hears each planned operation start and end; absent, `events` hears them as resource events. */
  steps?: StepObserver;
  /** `cdkd destroy --remove-protection`: providers turn deletion protection off before a delete. */
  removeProtection?: boolean;
  /** --replace: a replacement whose name the old resource holds deletes it first. */
  replace?: boolean;
  /** --force-stateful-recreation: what a re-plan that turns into a replacement is checked against. */
  forceStatefulRecreation?: boolean;
  /** The registry's replacement verdicts for a re-plan (the run's cache); absent: the bundled index decides. */
  registryAnswers?(types: readonly string[]): Promise<ReadonlyMap<string, RegistryAnswer>>;
}

/** A create's inputs, evaluated once: the provider, what is sent and what is stored. */
export interface PreparedCreate {
  provider: Provider;
  provisionedBy: ResourceRecord['provisionedBy'];
  properties: Record<string, unknown>;
  stored: Record<string, unknown>;
  sent: Record<string, unknown>;
}

/** Journals the request token a create was accepted as (see ResourceRequest.onAccepted). */
export type Accepted = (requestToken: string) => Promise<void>;

/** Tells the observer what an operation in flight learned. */
export type Learned = (fact: InFlightFact) => Promise<void>;

/** What a replacement needs of the executor carrying it out. */
export interface ReplaceHost {
  readonly services: ExecutorServices;
  create(op: PlannedOperation, release?: () => void): Promise<void>;
  prepareCreate(op: PlannedOperation): Promise<PreparedCreate>;
  request(op: PlannedOperation, prepared: PreparedCreate, idempotencyToken: string): ResourceRequest;
  makeResource(
    op: PlannedOperation,
    prepared: PreparedCreate,
    idempotencyToken: string,
    nameFree: boolean,
    release?: () => void,
    onAccepted?: Accepted,
  ): Promise<ResourceRecord>;
  journaled(
    draft: OperationDraft,
    apply: (onAccepted: Accepted, learned: Learned) => Promise<Partial<OperationDraft>>,
  ): Promise<void>;
  deleteRecorded(logicalId: string, record: ResourceRecord): Promise<void>;
  /** Forgets a deleted parent's record, and its children's that AWS deleted with it, in one save. */
  parentDeleted(logicalId: string, parent: ResourceRecord): Promise<void>;
}
