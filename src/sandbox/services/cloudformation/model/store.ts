import { createHash } from 'node:crypto';
import type { Storage } from '../../../storage/storage.js';
import type { StackEvent, StackRecord } from './types.js';

const STACKS = 'cloudformation/stacks';
const EVENTS = 'cloudformation/events';

const docId = (stackId: string): string => createHash('sha256').update(stackId).digest('hex').slice(0, 40);

/** Where a call acts: stacks are per account and region, as on AWS. */
export interface Scope {
  region: string;
  accountId: string;
}

/**
 * Stacks and their events, in memory and written through to storage. A failed write rejects
 * `save`, so the caller can tell a stack record it could not persist (seed 004).
 */
export class StackStore {
  private readonly stacks = new Map<string, StackRecord>();
  private readonly events = new Map<string, StackEvent[]>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<StackStore> {
    const store = new StackStore(storage);
    for (const { doc } of await storage.listDocuments<StackRecord>(STACKS))
      store.stacks.set(doc.stackId, doc);
    for (const { doc } of await storage.listDocuments<{ stackId: string; events: StackEvent[] }>(EVENTS)) {
      store.events.set(doc.stackId, doc.events);
    }
    return store;
  }

  all(): StackRecord[] {
    return [...this.stacks.values()];
  }

  inScope(scope: Scope): StackRecord[] {
    return this.all().filter((stack) => stack.region === scope.region && stack.accountId === scope.accountId);
  }

  /**
   * The stack a name or id names: by id any stack (deleted ones too), by name the one that is
   * not deleted, as DescribeStacks reads them.
   */
  find(scope: Scope, nameOrId: string): StackRecord | undefined {
    if (nameOrId.startsWith('arn:')) {
      const stack = this.stacks.get(nameOrId);
      return stack && stack.region === scope.region && stack.accountId === scope.accountId
        ? stack
        : undefined;
    }
    return this.inScope(scope).find(
      (stack) => stack.stackName === nameOrId && stack.status !== 'DELETE_COMPLETE',
    );
  }

  byId(stackId: string): StackRecord | undefined {
    return this.stacks.get(stackId);
  }

  add(stack: StackRecord): Promise<void> {
    this.stacks.set(stack.stackId, stack);
    return this.save(stack);
  }

  save(stack: StackRecord): Promise<void> {
    return this.storage.putDocument(STACKS, docId(stack.stackId), stack);
  }

  /** A stack that never left REVIEW_IN_PROGRESS leaves no trace when its last change set goes. */
  async forget(stack: StackRecord): Promise<void> {
    this.stacks.delete(stack.stackId);
    this.events.delete(stack.stackId);
    await this.storage.deleteDocument(STACKS, docId(stack.stackId));
    await this.storage.deleteDocument(EVENTS, docId(stack.stackId));
  }

  eventsOf(stackId: string): readonly StackEvent[] {
    return this.events.get(stackId) ?? [];
  }

  addEvent(event: StackEvent): Promise<void> {
    const list = this.events.get(event.stackId) ?? [];
    list.push(event);
    this.events.set(event.stackId, list);
    return this.storage.putDocument(EVENTS, docId(event.stackId), { stackId: event.stackId, events: list });
  }
}
