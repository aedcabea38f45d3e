import type { Provider, ProviderKind } from '../../src/providers/provider.js';
import type { ProviderRouter } from '../../src/engine/provider-router.js';

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
export class FakeCloud implements ProviderRouter {
  readonly live = new Map<string, { type: string; properties: Record<string, unknown> }>();
  readonly calls: FakeCall[] = [];
  failOn = new Set<string>();
  private counter = 0;

  readonly provider: Provider = {
    kind: 'cc-api' as ProviderKind,
    handles: () => true,
    canUpdateInPlace: () => true,
    create: async (request) => {
      await tick();
      if (this.failOn.has(`create:${request.logicalId}`))
        throw new Error(`injected create failure on ${request.logicalId}`);
      this.counter += 1;
      const physicalId = `${request.logicalId.toLowerCase()}-${this.counter}`;
      this.live.set(physicalId, { type: request.type, properties: request.properties });
      this.calls.push({
        action: 'create',
        logicalId: request.logicalId,
        type: request.type,
        physicalId,
        properties: request.properties,
      });
      return { physicalId, attributes: { Arn: `arn:fake:${physicalId}` } };
    },
    update: async (request) => {
      await tick();
      if (this.failOn.has(`update:${request.logicalId}`))
        throw new Error(`injected update failure on ${request.logicalId}`);
      this.live.set(request.physicalId, { type: request.type, properties: request.properties });
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
      this.live.delete(request.physicalId);
      this.calls.push({
        action: 'delete',
        logicalId: request.logicalId,
        type: request.type,
        physicalId: request.physicalId,
      });
    },
    read: async (request) => {
      const live = this.live.get(request.physicalId);
      return live ? { properties: live.properties, attributes: {} } : undefined;
    },
  };

  route(): { provider: Provider; provisionedBy: ProviderKind } {
    return { provider: this.provider, provisionedBy: 'cc-api' };
  }

  providerFor(): Provider {
    return this.provider;
  }

  canHandle(type: string): boolean {
    return !type.startsWith('Custom::');
  }

  providerCanUpdate(): boolean {
    return true;
  }

  liveIds(): string[] {
    return [...this.live.keys()].sort();
  }
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
