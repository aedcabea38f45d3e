import {
  ResourceMadeError,
  type CreationIdentity,
  type Provider,
  type ProviderKind,
} from '../../src/providers/provider.js';
import type { ProviderRouter } from '../../src/provider-calls/router.js';
import { ENGINE_SKIPPED_TYPES } from '../../src/providers/handled-types.js';

export interface FakeCall {
  action: 'create' | 'update' | 'delete';
  logicalId: string;
  type: string;
  physicalId: string;
  properties?: Record<string, unknown>;
}

/**
 * An in-memory cloud for engine tests: every type is handled, every create
 * gets a fresh id, and a test can make chosen calls fail.
 */
export interface FakeResource {
  type: string;
  properties: Record<string, unknown>;
  /** The idempotency token of the create that made it: what `locate` finds it by. */
  token?: string;
  /** Returned by `read`; set on a resource a create made before it failed. */
  creationIdentity?: CreationIdentity;
}

export class FakeCloud implements ProviderRouter {
  readonly live = new Map<string, FakeResource>();
  readonly calls: FakeCall[] = [];
  /** `create:<id>`, `update:<id>`, `delete:<id>` or `read:<id>` (by logical id): that call throws. */
  failOn = new Set<string>();
  /** The message a failing call (`failOn`) throws, when not the default. */
  failMessage = new Map<string, string>();
  /** `create:<id>`: the create makes its resource, then throws ResourceMadeError (a failed follow-up call). */
  madeThenFail = new Set<string>();
  /** A create whose QueueName a live resource already holds is refused, as a service refuses a taken name. */
  uniqueQueueNames = false;
  /** With uniqueQueueNames: creates that still find a deleted queue's name taken, as a service releasing it late. */
  nameReleaseLag = 0;
  private released = new Set<unknown>();
  private counter = 0;

  readonly provider: Provider = {
    kind: 'cc-api' as ProviderKind,
    handles: () => true,
    canUpdateInPlace: () => true,
    create: async (request) => {
      await tick();
      if (this.failOn.has(`create:${request.logicalId}`))
        throw new Error(
          this.failMessage.get(`create:${request.logicalId}`) ??
            `injected create failure on ${request.logicalId}`,
        );
      const name = request.properties.QueueName;
      const releasing = this.released.has(name) && this.nameReleaseLag > 0;
      if (releasing) this.nameReleaseLag -= 1;
      if (
        this.uniqueQueueNames &&
        (releasing || [...this.live.values()].some((live) => live.properties.QueueName === name))
      ) {
        throw Object.assign(new Error(`A queue named ${String(name)} already exists`), {
          name: 'QueueNameExists',
          $metadata: { httpStatusCode: 400 },
        });
      }
      this.counter += 1;
      const physicalId = `${request.logicalId.toLowerCase()}-${this.counter}`;
      const made = this.madeThenFail.has(`create:${request.logicalId}`);
      const creationIdentity = made ? { serial: this.counter } : undefined;
      this.live.set(physicalId, {
        type: request.type,
        properties: request.properties,
        ...(request.idempotencyToken ? { token: request.idempotencyToken } : {}),
        ...(creationIdentity ? { creationIdentity } : {}),
      });
      this.calls.push({
        action: 'create',
        logicalId: request.logicalId,
        type: request.type,
        physicalId,
        properties: request.properties,
      });
      if (creationIdentity) {
        throw new ResourceMadeError(
          { physicalId, creationIdentity },
          new Error(`injected follow-up failure after creating ${physicalId}`),
        );
      }
      return { physicalId, attributes: { Arn: `arn:fake:${physicalId}` } };
    },
    update: async (request) => {
      await tick();
      if (this.failOn.has(`update:${request.logicalId}`))
        throw new Error(`injected update failure on ${request.logicalId}`);
      const existing = this.live.get(request.physicalId);
      this.live.set(request.physicalId, { ...existing, type: request.type, properties: request.properties });
      this.calls.push({
        action: 'update',
        logicalId: request.logicalId,
        type: request.type,
        physicalId: request.physicalId,
        properties: request.properties,
      });
      return { physicalId: request.physicalId, attributes: { Arn: `arn:fake:${request.physicalId}` } };
    },
    delete: async (request) => {
      await tick();
      if (this.failOn.has(`delete:${request.logicalId}`))
        throw new Error(`injected delete failure on ${request.logicalId}`);
      this.released.add(this.live.get(request.physicalId)?.properties.QueueName);
      this.live.delete(request.physicalId);
      this.calls.push({
        action: 'delete',
        logicalId: request.logicalId,
        type: request.type,
        physicalId: request.physicalId,
      });
    },
    read: async (request) => {
      if (this.failOn.has(`read:${request.logicalId}`))
        throw new Error(`injected read failure on ${request.logicalId}`);
      const live = this.live.get(request.physicalId);
      if (!live) return undefined;
      return {
        properties: live.properties,
        attributes: {},
        ...(live.creationIdentity ? { creationIdentity: live.creationIdentity } : {}),
      };
    },
  };

  /** Gives the provider a `locate`: finds what a create with the same idempotency token made. */
  enableLocate(): void {
    this.provider.locate = async (request) => {
      await tick();
      const found = [...this.live].find(
        ([, resource]) => resource.token !== undefined && resource.token === request.idempotencyToken,
      );
      return found ? { physicalId: found[0] } : 'none';
    };
  }

  route(): { provider: Provider; provisionedBy: ProviderKind } {
    return { provider: this.provider, provisionedBy: 'cc-api' };
  }

  providerFor(): Provider {
    return this.provider;
  }

  /** As the real registry: no custom resources, and no provider for the types the engine skips. */
  canHandle(type: string): boolean {
    return !type.startsWith('Custom::') && !ENGINE_SKIPPED_TYPES.has(type);
  }

  providerCanUpdate(): boolean {
    return true;
  }

  /** Every type is Cloud Control's here: nothing is dropped. */
  uncoveredBySdk(): string[] {
    return [];
  }

  liveIds(): string[] {
    return [...this.live.keys()].sort();
  }
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
