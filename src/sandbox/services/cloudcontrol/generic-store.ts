import { createHash } from 'node:crypto';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import type { Storage } from '../../storage/storage.js';
import { withDerivedAttributes } from './derived-attributes.js';
import { buildModel, updatedModel } from './model-builder.js';
import { TaskDefinitionRevisions } from './task-definition-revisions.js';

const NAMESPACE = 'cloudcontrol/resources';

interface StoredResource {
  type: string;
  region: string;
  identifier: string;
  model: ResourceModel;
  createdAt: string;
}

const key = (type: string, region: string, identifier: string): string =>
  createHash('sha256').update(`${type}\n${region}\n${identifier}`).digest('hex').slice(0, 40);

/**
 * Resources of every type no service module emulates, kept as Cloud Control models.
 * Memory is changed before the first await, so a check-then-create is atomic.
 */
export class GenericStore {
  private readonly resources = new Map<string, StoredResource>();

  private constructor(
    private readonly storage: Storage,
    private readonly revisions: TaskDefinitionRevisions,
  ) {}

  static async load(storage: Storage): Promise<GenericStore> {
    const held = await storage.listDocuments<StoredResource>(NAMESPACE);
    const arns = held
      .filter(({ doc }) => doc.type === 'AWS::ECS::TaskDefinition')
      .map(({ doc }) => String(doc.model.TaskDefinitionArn));
    const store = new GenericStore(storage, await TaskDefinitionRevisions.load(storage, arns));
    for (const { id, doc } of held) store.resources.set(id, doc);
    return store;
  }

  /** The handler for one type; the type must be in the resource index. */
  handlerFor(type: string): ResourceHandler {
    const schema = sandboxSchemaFor(type)!;
    return {
      create: async (desired, region, accountId) => {
        const built = buildModel(type, schema, desired, { accountId, region, revisions: this.revisions });
        const id = key(type, region, built.identifier);
        if (this.resources.has(id)) {
          throw new HandlerError(
            'AlreadyExists',
            `Resource of type '${type}' with identifier '${built.identifier}' already exists.`,
          );
        }
        const stored = { type, region, ...built, createdAt: new Date().toISOString() };
        this.resources.set(id, stored);
        await this.storage.putDocument(NAMESPACE, id, stored);
        await this.revisions.saved();
        return { identifier: built.identifier, model: this.view(stored) };
      },
      read: (identifier, region) => {
        const stored = this.resources.get(key(type, region, identifier));
        return stored && this.view(stored);
      },
      createdAt: (identifier, region) => this.resources.get(key(type, region, identifier))?.createdAt,
      update: async (identifier, desired, region) => {
        const id = key(type, region, identifier);
        const stored = this.resources.get(id);
        if (!stored) throw notFound(type, identifier);
        stored.model = updatedModel(schema, stored.model, desired);
        await this.storage.putDocument(NAMESPACE, id, stored);
        return this.view(stored);
      },
      delete: async (identifier, region) => {
        const id = key(type, region, identifier);
        if (!this.resources.delete(id)) throw notFound(type, identifier);
        await this.storage.deleteDocument(NAMESPACE, id);
      },
      list: (region) =>
        [...this.resources.values()]
          .filter((stored) => stored.type === type && stored.region === region)
          .map((stored) => ({ identifier: stored.identifier, model: this.view(stored) })),
    };
  }

  /** A copy of the stored model as reads answer it, with the values other resources determine. */
  private view(stored: StoredResource): ResourceModel {
    const related = (type: string) =>
      [...this.resources.values()]
        .filter((other) => other.type === type && other.region === stored.region)
        .map((other) => other.model);
    return structuredClone(withDerivedAttributes(stored.type, stored.model, related));
  }

  /** Everything held, by type, for the sandbox inventory. */
  byType(): Record<string, Array<{ id: string; region: string; createdAt: string }>> {
    const result: Record<string, Array<{ id: string; region: string; createdAt: string }>> = {};
    for (const stored of this.resources.values()) {
      (result[stored.type] ??= []).push({
        id: stored.identifier,
        region: stored.region,
        createdAt: stored.createdAt,
      });
    }
    return result;
  }
}

function notFound(type: string, identifier: string): HandlerError {
  return new HandlerError(
    'NotFound',
    `Resource of type '${type}' with identifier '${identifier}' was not found.`,
  );
}
