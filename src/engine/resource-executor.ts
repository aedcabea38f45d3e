import { randomUUID } from 'node:crypto';
import { CdkdError, isCdkdError, messageOf } from '../errors.js';
import { buildPlan, propertyHash, type PlannedOperation } from '../plan/index.js';
import {
  OutcomeUnknownError,
  ResourceMadeError,
  type CreateResult,
  type ProviderContext,
  type UpdateResult,
} from '../providers/provider.js';
import type { JournalOperation } from '../state/documents/journal-document.js';
import type { ResourceRecord } from '../state/documents/state-document.js';
import { keepsResource, type ExternalResolver, type PreparedTemplate } from '../template/index.js';
import { refuseEqualCustomId } from './custom-resource-replacement.js';
import type { EventSink, ResourceAction } from './events.js';
import type { ProviderRouter } from './provider-router.js';
import type { OperationDraft, RunJournal } from './run-journal.js';
import type { StackState } from './stack-state.js';

/** How to evaluate a resource's properties; absent for a destroy, which only deletes. */
export interface Evaluation {
  /** The template with real parameter values: what is sent. */
  prepared: PreparedTemplate;
  /** The same template with NoEcho values masked: what is stored. */
  masked: PreparedTemplate;
  resolver: ExternalResolver;
}

export interface ExecutorServices {
  state: StackState;
  evaluation?: Evaluation;
  router: ProviderRouter;
  context: ProviderContext;
  /** Resolves `{{resolve:...}}` dynamic references just before a value is sent. */
  sendable(properties: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Wraps each provider call in the retry schedules of its error class; `label` names the resource. */
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
  events: EventSink;
  /** The deploy run's write-ahead journal; absent for a destroy. */
  journal?: RunJournal;
}

/**
 * Carries out one planned operation against its provider and records the
 * result in state before it returns, so every resource AWS holds is in state.
 */
export class ResourceExecutor {
  constructor(private readonly services: ExecutorServices) {}

  async run(op: PlannedOperation): Promise<void> {
    const started = Date.now();
    const report = (action: ResourceAction, status: 'started' | 'succeeded' | 'skipped', message?: string) =>
      this.services.events({
        kind: 'resource',
        stack: this.services.state.ref.stackName,
        logicalId: op.logicalId,
        type: op.type,
        action,
        status,
        physicalId: this.services.state.record(op.logicalId)?.physicalId,
        ...(message ? { message } : {}),
        ...(status === 'started' ? {} : { durationMs: Date.now() - started }),
      });
    try {
      await this.dispatch(op, report);
    } catch (error) {
      this.services.events({
        kind: 'resource',
        stack: this.services.state.ref.stackName,
        logicalId: op.logicalId,
        type: op.type,
        action: op.kind === 'no-op' ? 'update' : op.kind,
        status: 'failed',
        message: messageOf(error),
        durationMs: Date.now() - started,
      });
      throw new CdkdError(
        'RESOURCE_FAILED',
        `${op.logicalId} (${op.type}): ${op.kind} failed: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private async dispatch(
    op: PlannedOperation,
    report: (action: ResourceAction, status: 'started' | 'succeeded' | 'skipped', message?: string) => void,
  ): Promise<void> {
    switch (op.kind) {
      case 'create':
        report('create', 'started');
        await this.create(op);
        return report('create', 'succeeded');
      case 'replace':
        report('replace', 'started');
        await this.replace(op, op.updateReplacePolicy);
        return report('replace', 'succeeded');
      case 'update': {
        const kind = this.replan(op);
        if (kind === 'no-op')
          return report('update', 'skipped', 'nothing changed once its references resolved');
        report(kind, 'started');
        if (kind === 'replace') await this.replace(op, op.updateReplacePolicy);
        else await this.update(op);
        return report(kind, 'succeeded');
      }
      case 'delete': {
        const record = this.services.state.record(op.logicalId);
        if (!record) return;
        if (keepsResource(record.deletionPolicy ?? op.deletionPolicy)) {
          await this.services.state.removeRecord(op.logicalId);
          return report(
            'retain',
            'succeeded',
            `kept in AWS (DeletionPolicy ${record.deletionPolicy}); no longer tracked`,
          );
        }
        report('delete', 'started');
        await this.journaled(
          {
            logicalId: op.logicalId,
            action: 'delete',
            type: record.type,
            before: record,
            physicalId: record.physicalId,
            ...policies(op),
          },
          async () => {
            await this.deleteRecorded(op.logicalId, record);
            await this.services.state.removeRecord(op.logicalId);
            return {};
          },
        );
        return report('delete', 'succeeded');
      }
      case 'no-op':
        if (op.propertyHash && this.services.state.record(op.logicalId)?.propertyHash !== op.propertyHash) {
          // A legacy record without a hash: record it now, with no API call (spec 004).
          const record = this.services.state.record(op.logicalId)!;
          await this.services.state.setRecord(op.logicalId, { ...record, propertyHash: op.propertyHash });
        }
        return;
    }
  }

  /** Decides again with resolved properties: a reader of a replaced resource may now be unchanged. */
  private replan(op: PlannedOperation): 'no-op' | 'update' | 'replace' {
    const recorded = this.services.state.record(op.logicalId);
    if (!recorded) return 'update';
    const { properties } = this.evaluate(op.logicalId);
    const [decided] = buildPlan(
      {
        desired: [{ logicalId: op.logicalId, type: op.type, properties, dependencies: [] }],
        recorded: { [op.logicalId]: recorded },
      },
      {
        canHandle: () => true,
        providerCanUpdate: (type, changed) =>
          this.services.router.providerCanUpdate(type, changed, recorded.provisionedBy),
      },
    ).operations;
    if (!decided || decided.kind === 'no-op') return 'no-op';
    return decided.kind === 'replace' ? 'replace' : 'update';
  }

  private evaluate(logicalId: string): {
    properties: Record<string, unknown>;
    stored: Record<string, unknown>;
  } {
    const evaluation = this.services.evaluation;
    if (!evaluation) throw new Error(`no template to evaluate ${logicalId} against`);
    return {
      properties: evaluation.prepared.evaluateResourceProperties(logicalId, evaluation.resolver),
      stored: evaluation.masked.evaluateResourceProperties(logicalId, evaluation.resolver),
    };
  }

  private async create(op: PlannedOperation): Promise<void> {
    const { stored } = this.evaluate(op.logicalId);
    // One token for every attempt of this create, so a replay after a lost response makes nothing new.
    const idempotencyToken = randomUUID();
    await this.journaled(
      {
        logicalId: op.logicalId,
        action: 'create',
        type: op.type,
        attempted: stored,
        idempotencyToken,
        ...policies(op),
      },
      async () => {
        const record = await this.makeResource(op, idempotencyToken);
        await storeMade(record, stored, {
          save: () => this.services.state.setRecord(op.logicalId, record),
          undo: () => void this.services.state.removeRecord(op.logicalId).catch(() => undefined),
        });
        return { physicalId: record.physicalId, after: record };
      },
    );
  }

  /** Creates the resource and returns its record; the caller stores it. */
  private async makeResource(op: PlannedOperation, idempotencyToken: string): Promise<ResourceRecord> {
    const { properties, stored } = this.evaluate(op.logicalId);
    const { provider, provisionedBy } = this.services.router.route({ type: op.type, properties });
    const sent = await this.services.sendable(properties);
    try {
      const result = await this.services.retry(op.logicalId, () =>
        provider.create(
          { logicalId: op.logicalId, type: op.type, properties: sent, idempotencyToken },
          this.services.context,
        ),
      );
      return this.newRecord(op, result, stored, properties, provisionedBy);
    } catch (error) {
      if (error instanceof ResourceMadeError) throw new MadeThenFailed(error, provisionedBy, stored);
      throw error;
    }
  }

  /** Create-first: the old resource is kept as a pending delete until the cleanup phase removes it. */
  private async replace(op: PlannedOperation, updateReplacePolicy: string | undefined): Promise<void> {
    const old = this.services.state.record(op.logicalId);
    if (!old) return this.create(op);
    const { stored } = this.evaluate(op.logicalId);
    const retainOld = keepsResource(updateReplacePolicy);
    const idempotencyToken = randomUUID();
    await this.journaled(
      {
        logicalId: op.logicalId,
        action: 'replace',
        type: op.type,
        ...(old.type !== op.type ? { previousType: old.type } : {}),
        before: old,
        previousPhysicalId: old.physicalId,
        attempted: stored,
        verdict: { replacement: true, order: 'create-first' },
        idempotencyToken,
        ...policies(op),
      },
      async () => {
        const record = await this.makeResource(op, idempotencyToken);
        refuseEqualCustomId(op.logicalId, old, record, updateReplacePolicy);
        const state = this.services.state;
        await storeMade(record, stored, {
          save: () => state.replaceRecord(op.logicalId, record, retainOld ? undefined : old),
          // State names the old resource again; the journal's made entry names the new one.
          undo: () => {
            void state.setRecord(op.logicalId, old).catch(() => undefined);
            void state.removePendingDelete(old.physicalId, old.type).catch(() => undefined);
          },
        });
        if (retainOld) {
          this.services.events({
            kind: 'warning',
            stack: this.services.state.ref.stackName,
            message: `${op.logicalId}: the old ${old.type} ${old.physicalId} is kept in AWS (UpdateReplacePolicy ${updateReplacePolicy}) and no longer tracked.`,
          });
        }
        return {
          physicalId: record.physicalId,
          after: record,
          verdict: { replacement: true, order: 'create-first', oldRetained: retainOld },
        };
      },
    );
  }

  /**
   * Records the operation in the journal before `apply` sends anything, then its
   * outcome; a failed create that made its resource is recorded with the proof, and
   * one refused on its name before anything was applied is dropped.
   */
  private async journaled(
    draft: OperationDraft,
    apply: () => Promise<Partial<OperationDraft>>,
  ): Promise<void> {
    const journal = this.services.journal;
    const entry: JournalOperation | undefined = journal ? await journal.begin(draft) : undefined;
    let outcome: Partial<OperationDraft>;
    try {
      outcome = await apply();
    } catch (error) {
      // Sent, with its answer still to come: the entry stays in flight for cdkd rollback to settle.
      if (error instanceof OutcomeUnknownError) throw error;
      if (journal && entry) {
        if (refusedOnName(draft, error)) await journal.dropUnapplied(entry);
        else await journal.fail(entry, failureOutcome(error));
      }
      throw error instanceof MadeThenFailed ? error.made.failure : error;
    }
    if (journal && entry) await journal.complete(entry, outcome);
  }

  private async update(op: PlannedOperation): Promise<void> {
    const recorded = this.services.state.record(op.logicalId)!;
    const { properties, stored } = this.evaluate(op.logicalId);
    const { provider, provisionedBy } = this.services.router.route({
      type: op.type,
      properties,
      recordedProperties: recorded.properties,
      recordedBy: recorded.provisionedBy,
    });
    const sent = await this.services.sendable(properties);
    await this.journaled(
      {
        logicalId: op.logicalId,
        action: 'update',
        type: op.type,
        before: recorded,
        physicalId: recorded.physicalId,
        previousPhysicalId: recorded.physicalId,
        attempted: stored,
        ...policies(op),
      },
      async () => {
        const result = await this.services.retry(op.logicalId, () =>
          provider.update(
            {
              logicalId: op.logicalId,
              type: op.type,
              physicalId: recorded.physicalId,
              properties: sent,
              previousProperties: recorded.properties,
            },
            this.services.context,
          ),
        );
        // Region and creation identity stay those of the resource made; the rest is what was applied now.
        const record: ResourceRecord = {
          ...this.applied(op, result, stored, properties, provisionedBy),
          ...(recorded.region ? { region: recorded.region } : {}),
          ...(recorded.creationIdentity ? { creationIdentity: recorded.creationIdentity } : {}),
        };
        // A new resource beside the old one: the old is a pending delete until the cleanup phase.
        if (result.oldNeedsDelete) await this.services.state.replaceRecord(op.logicalId, record, recorded);
        else await this.services.state.setRecord(op.logicalId, record);
        return { physicalId: record.physicalId, after: record, verdict: { replacement: false } };
      },
    );
  }

  /** Deletes a recorded resource through the provider family that made it. */
  async deleteRecorded(logicalId: string, record: ResourceRecord): Promise<void> {
    const provider = this.services.router.providerFor(record.type, record.provisionedBy);
    await this.services.retry(logicalId, () =>
      provider.delete(
        { logicalId, type: record.type, physicalId: record.physicalId, properties: record.properties },
        this.services.context,
      ),
    );
  }

  private newRecord(
    op: PlannedOperation,
    result: CreateResult,
    stored: Record<string, unknown>,
    properties: Record<string, unknown>,
    provisionedBy: ResourceRecord['provisionedBy'],
  ): ResourceRecord {
    return {
      ...this.applied(op, result, stored, properties, provisionedBy),
      region: this.services.context.region,
      ...(result.creationIdentity ? { creationIdentity: result.creationIdentity } : {}),
    };
  }

  /** The record fields a create or an update sets: what was applied and what AWS answered. */
  private applied(
    op: PlannedOperation,
    result: UpdateResult,
    stored: Record<string, unknown>,
    properties: Record<string, unknown>,
    provisionedBy: ResourceRecord['provisionedBy'],
  ): Omit<ResourceRecord, 'region' | 'creationIdentity' | 'observedProperties'> {
    return {
      type: op.type,
      physicalId: result.physicalId,
      ...(result.ref ? { ref: result.ref } : {}),
      properties: stored,
      attributes: result.attributes,
      propertyHash: propertyHash(properties),
      provisionedBy,
      dependencies: op.dependsOn,
      ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
      ...(op.updateReplacePolicy ? { updateReplacePolicy: op.updateReplacePolicy } : {}),
    };
  }
}

/** A create whose provider proved it made the resource before failing; carried up to the journal. */
class MadeThenFailed extends Error {
  constructor(
    readonly made: ResourceMadeError,
    readonly provisionedBy: ResourceRecord['provisionedBy'],
    readonly stored: Record<string, unknown>,
  ) {
    super(made.message);
  }
}

/**
 * Stores what a create just made. When that state save fails, memory is put back as it was
 * and the resource is reported as made, so the journal records it (spec 003: nothing the
 * cloud holds is left out of both state and the journal) and every path can act on it.
 */
async function storeMade(
  record: ResourceRecord,
  stored: Record<string, unknown>,
  change: { save(): Promise<void>; undo(): void },
): Promise<void> {
  try {
    await change.save();
  } catch (error) {
    change.undo();
    const made = new ResourceMadeError(
      {
        physicalId: record.physicalId,
        ...(record.creationIdentity ? { creationIdentity: record.creationIdentity } : {}),
      },
      error,
    );
    throw new MadeThenFailed(made, record.provisionedBy, stored);
  }
}

function failureOutcome(error: unknown): Partial<OperationDraft> {
  if (!(error instanceof MadeThenFailed)) return { error: messageOf(error) };
  return {
    error: error.message,
    physicalId: error.made.made.physicalId,
    made: {
      physicalId: error.made.made.physicalId,
      provisionedBy: error.provisionedBy,
      properties: error.stored,
      ...(error.made.made.creationIdentity ? { creationIdentity: error.made.made.creationIdentity } : {}),
    },
  };
}

/** A create its provider refused because another resource holds its explicit name: nothing was applied. */
function refusedOnName(draft: OperationDraft, error: unknown): boolean {
  return draft.action === 'create' && isCdkdError(error) && error.code === 'NAMED_CREATE_COLLISION';
}

function policies(op: PlannedOperation): Pick<OperationDraft, 'deletionPolicy' | 'updateReplacePolicy'> {
  return {
    ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
    ...(op.updateReplacePolicy ? { updateReplacePolicy: op.updateReplacePolicy } : {}),
  };
}
