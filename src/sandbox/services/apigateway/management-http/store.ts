import { sandboxSchemaFor } from '../../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../../resources.js';
import type { SandboxContext } from '../../../service-module.js';
import { writableOf } from '../../api-module.js';
import { API_ID_PROPERTY, HTTP_TYPES } from '../config/reader.js';
import { httpApiErrors } from './shapes.js';

/** Where one call acts. */
export interface Where {
  region: string;
  accountId: string;
}

/**
 * An HTTP API and its parts as Cloud Control's models, in the store Cloud Control uses (what
 * config/reader.ts serves execute-api from): a part's identifier is its schema's primary
 * identifier values joined by `|`.
 */
export class HttpApiStore {
  constructor(private readonly context: SandboxContext) {}

  handler(type: string): ResourceHandler {
    return this.context.resources.resolve(type)!;
  }

  identifierOf(type: string, model: ResourceModel): string {
    return (sandboxSchemaFor(type)?.id ?? []).map((name) => String(model[name] ?? '')).join('|');
  }

  /** The API, or NotFoundException as API Gateway answers an unknown id. */
  api(apiId: string, where: Where): ResourceModel {
    const model = this.handler(HTTP_TYPES.api).read(apiId, where.region, where.accountId);
    if (!model) throw httpApiErrors.notFound('API', apiId, where.accountId);
    return model;
  }

  /** Every part of `type` that belongs to the API. */
  parts(type: string, apiId: string, where: Where): ResourceModel[] {
    return this.handler(type)
      .list(where.region, where.accountId)
      .map((entry) => entry.model)
      .filter((model) => model[API_ID_PROPERTY.http] === apiId);
  }

  create(
    type: string,
    desired: ResourceModel,
    where: Where,
  ): Promise<{ identifier: string; model: ResourceModel }> {
    return this.handler(type).create(desired, where.region, where.accountId);
  }

  /** Writes `model` as the part's new desired state (its settable properties). */
  async update(type: string, model: ResourceModel, where: Where): Promise<ResourceModel> {
    const identifier = this.identifierOf(type, model);
    try {
      return await this.handler(type).update(
        identifier,
        writableOf(type, model),
        where.region,
        where.accountId,
      );
    } catch (error) {
      if (error instanceof HandlerError && error.errorCode === 'NotFound') {
        throw httpApiErrors.notFound(type.split('::').pop()!, identifier);
      }
      throw error;
    }
  }

  async delete(type: string, model: ResourceModel, where: Where): Promise<void> {
    await this.handler(type).delete(this.identifierOf(type, model), where.region, where.accountId);
  }

  createdAt(type: string, model: ResourceModel, where: Where): string {
    return (
      this.handler(type).createdAt?.(this.identifierOf(type, model), where.region) ?? new Date().toISOString()
    );
  }
}
