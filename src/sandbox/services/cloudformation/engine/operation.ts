import type { SandboxContext } from '../../../service-module.js';
import type { StackStore } from '../model/store.js';
import type { ResourceStatus, StackRecord, StackResourceRecord, StackStatus } from '../model/types.js';
import type { EventWriter } from './events.js';
import { PersistFailure } from './failures.js';
import type { NestedStackOps, Provisioner } from './provisioner.js';

/** What every stack operation works with. */
export interface EngineDeps {
  context: SandboxContext;
  store: StackStore;
  events: EventWriter;
  provisioner: Provisioner;
  nested: NestedStackOps;
  /** True once the sandbox is stopping: operations stop starting work. */
  closing(): boolean;
}

/**
 * One operation on one stack: its status changes and each resource's, each written to the
 * stack record and as an event before the operation goes on. A write that fails is a
 * PersistFailure.
 */
export class StackOperation {
  /** Set by CancelUpdateStack: nothing new starts, and the update rolls back. */
  cancelled = false;

  constructor(
    readonly deps: EngineDeps,
    readonly stack: StackRecord,
  ) {}

  stopping(): boolean {
    return this.cancelled || this.deps.closing();
  }

  async status(status: StackStatus, reason?: string): Promise<void> {
    this.stack.status = status;
    if (reason === undefined) delete this.stack.statusReason;
    else this.stack.statusReason = reason;
    await this.persist();
    await this.guard(() => this.deps.events.stack(this.stack, reason));
  }

  async resource(
    record: StackResourceRecord,
    status: ResourceStatus,
    reason?: string,
    properties?: Record<string, unknown>,
  ): Promise<void> {
    record.status = status;
    record.lastUpdated = new Date().toISOString();
    if (reason === undefined) delete record.statusReason;
    else record.statusReason = reason;
    await this.persist();
    await this.guard(() => this.deps.events.resource(this.stack, record, properties));
  }

  persist(): Promise<void> {
    return this.guard(() => this.deps.store.save(this.stack));
  }

  private async guard(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      throw new PersistFailure(
        `The stack record could not be saved: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
