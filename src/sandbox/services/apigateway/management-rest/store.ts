import type { ResourceEntry, ResourceHandler, ResourceHandlers, ResourceModel } from '../../../resources.js';
import { writableOf } from '../../api-module.js';
import type { ApiCall } from '../../api-module.js';
import { apigwErrors } from './errors.js';

/** The REST API types the management calls read and write. */
export const TYPES = {
  api: 'AWS::ApiGateway::RestApi',
  resource: 'AWS::ApiGateway::Resource',
  method: 'AWS::ApiGateway::Method',
  deployment: 'AWS::ApiGateway::Deployment',
  stage: 'AWS::ApiGateway::Stage',
} as const;

/**
 * One call's view of REST APIs as Cloud Control's models (the store `config/reader.ts` serves
 * execute-api from): lookups that answer API Gateway's not-found errors, and writes through
 * the same handlers Cloud Control uses, so either side sees what the other made.
 */
export class RestApiStore {
  readonly region: string;
  readonly accountId: string;

  constructor(
    private readonly resources: ResourceHandlers,
    call: Pick<ApiCall, 'region' | 'accountId'>,
  ) {
    this.region = call.region;
    this.accountId = call.accountId;
  }

  handler(type: string): ResourceHandler {
    return this.resources.resolve(type)!;
  }

  apis(): ResourceEntry[] {
    return this.handler(TYPES.api).list(this.region, this.accountId);
  }

  api(restApiId: string): ResourceEntry {
    const entry = this.apis().find((candidate) => candidate.model.RestApiId === restApiId);
    if (!entry) throw apigwErrors.notFound(`Invalid API identifier specified ${this.accountId}:${restApiId}`);
    return entry;
  }

  parts(type: string, restApiId: string): ResourceEntry[] {
    return (this.resources.resolve(type)?.list(this.region, this.accountId) ?? []).filter(
      (entry) => entry.model.RestApiId === restApiId,
    );
  }

  /** A resource's model; the root resource lives on the API's model, so it is made up from it. */
  resource(restApiId: string, resourceId: string): ResourceModel {
    const api = this.api(restApiId);
    if (api.model.RootResourceId === resourceId) return { RestApiId: restApiId, ResourceId: resourceId };
    const entry = this.parts(TYPES.resource, restApiId).find((e) => e.model.ResourceId === resourceId);
    if (!entry) throw apigwErrors.notFound('Invalid Resource identifier specified');
    return entry.model;
  }

  resourceEntry(restApiId: string, resourceId: string): ResourceEntry | undefined {
    return this.parts(TYPES.resource, restApiId).find((e) => e.model.ResourceId === resourceId);
  }

  methodEntry(restApiId: string, resourceId: string, httpMethod: string): ResourceEntry | undefined {
    return this.parts(TYPES.method, restApiId).find(
      (entry) => entry.model.ResourceId === resourceId && entry.model.HttpMethod === httpMethod,
    );
  }

  method(restApiId: string, resourceId: string, httpMethod: string): ResourceEntry {
    this.resource(restApiId, resourceId);
    const entry = this.methodEntry(restApiId, resourceId, httpMethod);
    if (!entry) throw apigwErrors.notFound('Invalid Method identifier specified');
    return entry;
  }

  create(type: string, desired: ResourceModel): Promise<ResourceEntry> {
    return this.handler(type).create(desired, this.region, this.accountId);
  }

  /** Writes the model's settable properties back (ids and attributes are the store's). */
  update(type: string, entry: ResourceEntry, model: ResourceModel): Promise<ResourceModel> {
    return this.handler(type).update(entry.identifier, writableOf(type, model), this.region, this.accountId);
  }

  delete(type: string, entry: ResourceEntry): Promise<void> {
    return this.handler(type).delete(entry.identifier, this.region, this.accountId);
  }

  createdAt(type: string, entry: ResourceEntry): number {
    const at = this.resources.generic(type)?.createdAt?.(entry.identifier, this.region);
    return Math.floor((at ? Date.parse(at) : Date.now()) / 1000);
  }

  /** The API and, through its handler (api-parts-cascade.ts), every part of it. */
  async deleteApi(restApiId: string): Promise<void> {
    await this.delete(TYPES.api, this.api(restApiId));
  }
}
