import { SandboxError } from '../errors.js';
import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../protocols/json.js';
import {
  matchRoute,
  restJsonCodec,
  restJsonInput,
  restJsonResult,
  type RestRoute,
} from '../protocols/rest-json.js';
import type { SandboxRequest } from '../request.js';
import { sandboxSchemaFor } from '../resource-index.js';
import type { ResourceModel } from '../resources.js';
import type { InventoryEntry, ServiceModule } from '../service-module.js';

/** One call as a small module's handler sees it. */
export interface ApiCall {
  request: SandboxRequest;
  input: Record<string, unknown>;
  /** REST path labels (empty for JSON protocols). */
  labels: Record<string, string>;
  region: string;
  accountId: string;
}

export type ApiHandler = (call: ApiCall) => Promise<unknown> | unknown;

interface ModuleSpec {
  /** The SigV4 signing name. */
  name: string;
  handlers: Readonly<Record<string, ApiHandler>>;
  inventory?: () => Record<string, InventoryEntry[]>;
}

const READ = /^(Describe|Get|List|Batch(Get|Describe))/;
const unknownOperation = (operation: string) =>
  new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400);

/** A service over JSON 1.0/1.1 (`X-Amz-Target: <target>.<Op>`) whose operations are the handlers. */
export function jsonApiModule(spec: ModuleSpec & { version: '1.0' | '1.1'; target: string }): ServiceModule {
  return {
    name: spec.name,
    codec: jsonCodec(spec.version),
    operation: (request) => jsonOperation(request, spec.target),
    isMutating: (operation) => !READ.test(operation),
    async handle(request, operation) {
      const handler = spec.handlers[operation];
      if (!handler) throw unknownOperation(operation);
      const call = {
        request,
        input: jsonInput(request),
        labels: {},
        region: request.region,
        accountId: request.accountId,
      };
      return jsonResult(spec.version, await handler(call));
    },
    inventory: spec.inventory ?? (() => ({})),
  };
}

/** A service over REST-JSON whose routes name the operations; `status` is the success status (200 unless given). */
export function restJsonApiModule(
  spec: ModuleSpec & { routes: ReadonlyArray<RestRoute & { status?: number }> },
): ServiceModule {
  const route = (request: SandboxRequest) => {
    const match = matchRoute(spec.routes, request);
    if (!match) throw unknownOperation(`${request.method} ${request.path}`);
    return match;
  };
  return {
    name: spec.name,
    codec: restJsonCodec,
    operation: (request) => route(request).operation,
    isMutating: (operation) => !READ.test(operation),
    async handle(request, operation) {
      const { labels } = route(request);
      const handler = spec.handlers[operation];
      if (!handler) throw unknownOperation(operation);
      const call = {
        request,
        input: restJsonInput(request),
        labels,
        region: request.region,
        accountId: request.accountId,
      };
      const status = spec.routes.find((candidate) => candidate.operation === operation)?.status ?? 200;
      return restJsonResult(status, await handler(call));
    },
    inventory: spec.inventory ?? (() => ({})),
  };
}

/** A model as a desired state for an update: the type's settable properties only. */
export function writableOf(type: string, model: ResourceModel): ResourceModel {
  const props = new Set(sandboxSchemaFor(type)?.props ?? []);
  return Object.fromEntries(Object.entries(model).filter(([key]) => props.has(key)));
}
