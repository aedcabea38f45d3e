import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, beforeEach, expect } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import type { RollbackRequest, StackRollbackResult } from '../../src/engine/journal/rollback-stack.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import type { StackEvent } from '../../src/state/documents/events-document.js';
import type {
  ImportMark,
  JournalDocument,
  JournalOperation,
  JournalSegment,
  Verdict,
} from '../../src/state/documents/journal-document.js';
import {
  emptyStateDocument,
  type ResourceRecord,
  type StateDocument,
} from '../../src/state/documents/state-document.js';
import { readEvents } from '../../src/state/event-log.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import type { StackRef } from '../../src/state/state-store.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo, plansAnswered, yesToPlans } from '../helpers/recording-io-host.js';
import type { IoHost } from '../../src/messages/index.js';

const REGION = 'us-east-1';

/** A state record of a resource made through Cloud Control, with no attributes or dependencies. */
export function resourceRecord(
  type: string,
  physicalId: string,
  properties: Record<string, unknown> = {},
  extra: Partial<ResourceRecord> = {},
): ResourceRecord {
  return {
    type,
    physicalId,
    properties,
    attributes: {},
    provisionedBy: 'cc-api',
    dependencies: [],
    ...extra,
  };
}

/** The {@link resourceRecord} of an `AWS::SQS::Queue`. */
export function queueRecord(
  physicalId: string,
  properties: Record<string, unknown>,
  extra: Partial<ResourceRecord> = {},
): ResourceRecord {
  return resourceRecord('AWS::SQS::Queue', physicalId, properties, extra);
}

/** A nested stack's template: `Inner`, a queue whose visibility timeout its parent passes as `V`. */
export const nestedChildTemplate = {
  Parameters: { V: { Type: 'Number' } },
  Resources: { Inner: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: { Ref: 'V' } } } },
};

/** A journaled operation as a test writes it by hand: `seq` defaults to its position. */
export type HandOperation = Partial<JournalOperation> & Record<string, unknown>;

/** The engine-test harness of engine.test.ts, plus readers of the journal and the deployment events. */
export class RollbackHarness {
  backend!: StateBackend;
  cloud = new FakeCloud();
  events: DeployEvent[] = [];
  private counter = 0;

  /** An engine whose events `events` collects; `ask` answers its questions (default: yes to every plan). */
  engine(ask: IoHost['ask'] = yesToPlans): Promise<Engine> {
    return createEngine({
      backend: this.backend,
      clients: new AwsClients(),
      registry: this.cloud,
      io: eventsTo((event) => this.events.push(event), ask),
      command: 'deploy',
      regions: [REGION],
    });
  }

  stack(template: Record<string, unknown>, parameters?: Record<string, string>): StackRequest {
    this.counter += 1;
    const name = `Rollback${this.counter}`;
    return {
      stateName: name,
      stackName: name,
      region: REGION,
      accountId: '000000000000',
      template,
      ...(parameters ? { parameters } : {}),
    };
  }

  ref(request: StackRequest): StackRef {
    return { stackName: request.stateName, region: REGION };
  }

  async state(request: StackRequest): Promise<StateDocument | undefined> {
    return (await this.backend.store.read(this.ref(request)))?.document;
  }

  async journal(request: StackRequest): Promise<JournalDocument | undefined> {
    return (await this.backend.journals.read(this.ref(request)))?.document;
  }

  stackEvents(request: StackRequest): Promise<StackEvent[]> {
    return readEvents(this.backend.objects, this.backend.store.prefix, this.ref(request));
  }

  /** A: queue, B: topic reading A, C: fails; deployed with --no-rollback. */
  async readerFailedWithoutRollback(): Promise<{ request: StackRequest; a: string; b: string }> {
    const request = this.stack({
      Resources: {
        A: { Type: 'AWS::SQS::Queue' },
        B: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'A' } } },
        C: { Type: 'AWS::SQS::Queue', DependsOn: 'B' },
      },
    });
    this.cloud.failOn.add('create:C');
    await expect(
      (await this.engine()).deploy(request, { ...options, rollback: false }),
    ).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const state = (await this.state(request))!;
    return { request, a: state.resources.A!.physicalId, b: state.resources.B!.physicalId };
  }

  /**
   * A stack whose `Queue` a completed replacement moved from `old` (queue-old) to `current`
   * (queue-new, live): state names the new copy (and the old one as a pending delete with
   * `pendingOld`), and the hand-written journal holds the replacement after `earlier`.
   */
  async replacedQueue(input: {
    current: ResourceRecord;
    old: ResourceRecord;
    verdict: Verdict;
    pendingOld?: boolean;
    earlier?: HandOperation[];
  }): Promise<StackRequest> {
    const request = this.stack({});
    this.cloud.live.set(input.current.physicalId, {
      type: input.current.type,
      properties: input.current.properties,
    });
    const state = emptyStateDocument(request.stateName, request.region);
    state.resources.Queue = input.current;
    if (input.pendingOld) state.pendingDeletes.push({ logicalId: 'Queue', record: input.old });
    await this.backend.store.save(this.ref(request), state, undefined);
    await this.writeJournal(request, [
      ...(input.earlier ?? []),
      {
        logicalId: 'Queue',
        action: 'replace',
        type: input.current.type,
        status: 'completed',
        before: input.old,
        after: input.current,
        physicalId: input.current.physicalId,
        previousPhysicalId: input.old.physicalId,
        verdict: input.verdict,
      },
    ]);
    return request;
  }

  /** Writes a journal by hand, as a killed process or a hand edit leaves it. */
  async writeJournal(
    request: StackRequest,
    operations: HandOperation[],
    existingEtag?: string,
    importMarks: ImportMark[] = [],
  ): Promise<void> {
    await this.writeSegments(request, [{ operations, importMarks }], existingEtag);
  }

  /**
   * Writes a journal of several segments by hand, oldest first: each gets the run id
   * `hand-<stateName>-<index>` unless given one, and the import marks `cdkd import` left on it.
   */
  async writeSegments(
    request: StackRequest,
    segments: Array<{ operations: HandOperation[]; importMarks?: ImportMark[]; runId?: string }>,
    existingEtag?: string,
  ): Promise<void> {
    const document: JournalDocument = {
      version: 1,
      stackName: request.stateName,
      region: REGION,
      segments: segments.map((segment, index): JournalSegment => ({
        runId:
          segment.runId ??
          (segments.length === 1 ? `hand-${request.stateName}` : `hand-${request.stateName}-${index}`),
        startedAt: new Date().toISOString(),
        cdkdVersion: 'test',
        flags: {},
        previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
        status: 'interrupted',
        operations: segment.operations.map((op, seq) => ({ seq, ...op }) as JournalOperation),
        importMarks: segment.importMarks ?? [],
      })),
    };
    await this.backend.journals.writer(this.ref(request))(document, existingEtag);
  }

  async rollback(
    request: StackRequest,
    overrides: Partial<RollbackRequest> & { confirm?: (lines: string[]) => Promise<boolean> } = {},
  ): Promise<StackRollbackResult> {
    const { confirm, ...flags } = overrides;
    return (await this.engine(confirm && plansAnswered(confirm))).rollback({
      stack: request,
      revertFailed: false,
      orphan: new Set(),
      force: false,
      ...flags,
    });
  }

  /**
   * A deployed queue named `first-name` under UpdateReplacePolicy: Retain, with `Late` set to
   * fail: deploying `template('second-name', true)` replaces the queue, then fails.
   */
  async retainedQueueBeforeFailure() {
    const template = (queueName: string, late: boolean) => ({
      Resources: {
        Queue: {
          Type: 'AWS::SQS::Queue',
          UpdateReplacePolicy: 'Retain',
          Properties: { QueueName: queueName },
        },
        ...(late ? { Late: { Type: 'AWS::SQS::Queue', DependsOn: 'Queue' } } : {}),
      },
    });
    const request = this.stack(template('first-name', false));
    await (await this.engine()).deploy(request, options);
    const oldId = (await this.state(request))!.resources.Queue!.physicalId;
    this.cloud.failOn.add('create:Late');
    this.cloud.calls.length = 0;
    return { request, oldId, template };
  }

  /** A `--no-rollback` deploy whose `Made` create (after `Keep`) made its resource and then failed. */
  async madeWithoutRollback(type: string) {
    const request = this.stack({
      Resources: { Keep: { Type: 'AWS::SQS::Queue' }, Made: { Type: type, DependsOn: 'Keep' } },
    });
    this.cloud.madeThenFail.add('create:Made');
    await expect(
      (await this.engine()).deploy(request, { ...options, rollback: false }),
    ).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const made = this.cloud.calls.find(
      (call) => call.action === 'create' && call.logicalId === 'Made',
    )!.physicalId;
    const keep = (await this.state(request))!.resources.Keep!.physicalId;
    expect(this.cloud.liveIds()).toEqual([keep, made].sort());
    const op = (await this.journal(request))!.segments[0]!.operations.find(
      (entry) => entry.logicalId === 'Made',
    );
    expect(op).toMatchObject({
      status: 'failed',
      made: { physicalId: made, creationIdentity: { serial: 2 } },
    });
    return { request, made, keep };
  }

  /**
   * `request` (by default a new stack) as the parent of the nested stack `Child`, built from
   * `childTemplate` with `V` set to `visibility`; with `withLate`, a topic `Late` after it.
   */
  parentStack(
    visibility: number,
    withLate: boolean,
    request: StackRequest = this.stack({}),
    childTemplate: Record<string, unknown> = nestedChildTemplate,
  ): StackRequest {
    return {
      ...request,
      template: {
        Resources: {
          Child: {
            Type: 'AWS::CloudFormation::Stack',
            Properties: { TemplateURL: 'x', Parameters: { V: String(visibility) } },
          },
          ...(withLate ? { Late: { Type: 'AWS::SNS::Topic', DependsOn: 'Child' } } : {}),
        },
      },
      nested: new Map([['Child', { template: childTemplate, nested: new Map() }]]),
    };
  }

  rollbackEvents(logicalId: string): Array<Extract<DeployEvent, { kind: 'rollback' }>> {
    return this.events.filter(
      (event): event is Extract<DeployEvent, { kind: 'rollback' }> =>
        event.kind === 'rollback' && event.logicalId === logicalId,
    );
  }
}

/** Starts a sandbox for the state bucket and gives each test a fresh fake cloud. */
export function useRollbackHarness(): RollbackHarness {
  useSandbox();
  const harness = new RollbackHarness();
  beforeAll(async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'rollback-test' }));
    harness.backend = await openStateBackend(clients, 'rollback-test', 'cdkd');
  });
  beforeEach(() => {
    harness.cloud = new FakeCloud();
    harness.events = [];
  });
  return harness;
}

export const options = { concurrency: 4 };
