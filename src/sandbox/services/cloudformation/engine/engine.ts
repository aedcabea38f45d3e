import type { SandboxContext } from '../../../service-module.js';
import type { StackStore } from '../model/store.js';
import { inProgress } from '../model/status.js';
import type { StackRecord, StackStatus } from '../model/types.js';
import { CustomResources } from './custom-resources.js';
import { EventWriter } from './events.js';
import { reasonOf } from './failures.js';
import { NestedStacks } from './nested-stacks.js';
import { StackOperation, type EngineDeps } from './operation.js';
import { Provisioner } from './provisioner.js';

/** The status a stack ends in when what it was doing stopped without finishing. */
const FAILED: Partial<Record<StackStatus, StackStatus>> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_FAILED',
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_FAILED',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  IMPORT_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
  IMPORT_ROLLBACK_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
};

/**
 * Runs stack operations in the background, as CloudFormation does: the API call answers
 * once the operation is accepted, and the client polls DescribeStacks and DescribeStackEvents.
 */
export class StackEngine {
  readonly deps: EngineDeps;
  private readonly running = new Map<string, { op: StackOperation; done: Promise<void> }>();
  private closed = false;

  constructor(context: SandboxContext, store: StackStore) {
    const nested = new NestedStacks(() => this.deps);
    const custom = new CustomResources(context, () => this.closed);
    this.deps = {
      context,
      store,
      events: new EventWriter(store),
      provisioner: new Provisioner(context, custom, nested),
      nested,
      closing: () => this.closed,
    };
  }

  start(stack: StackRecord, work: (op: StackOperation) => Promise<void>): void {
    const op = new StackOperation(this.deps, stack);
    const done = work(op)
      .catch((error: unknown) => this.fail(stack, reasonOf(error)))
      .finally(() => this.running.delete(stack.stackId));
    this.running.set(stack.stackId, { op, done });
  }

  /** CancelUpdateStack: the running update starts nothing new and rolls back. */
  cancel(stackId: string): boolean {
    const running = this.running.get(stackId);
    if (!running) return false;
    running.op.cancelled = true;
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running.values()].map((running) => running.done));
  }

  /** Stacks a stopped sandbox left in progress end in the failed status of what they were doing. */
  async recover(): Promise<void> {
    for (const stack of this.deps.store.all()) {
      if (!inProgress(stack.status) || stack.status === 'REVIEW_IN_PROGRESS') continue;
      await this.fail(stack, `The sandbox stopped while the stack was ${stack.status}`);
    }
  }

  /** An operation that ended without settling the stack (a record it could not save). */
  private async fail(stack: StackRecord, reason: string): Promise<void> {
    const failed = FAILED[stack.status];
    if (failed === undefined) return;
    stack.status = failed;
    stack.statusReason = reason;
    await this.deps.store.save(stack).catch(() => undefined);
    await this.deps.events.stack(stack, reason).catch(() => undefined);
  }
}
