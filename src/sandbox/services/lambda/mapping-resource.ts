import { SandboxError } from '../../errors.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import type { LambdaCall } from './call.js';
import * as mappings from './mapping-ops.js';
import type { MappingRecord } from './model.js';
import type { LambdaStore } from './store.js';

type NewCall = (
  region: string,
  input: Record<string, unknown>,
  labels?: Record<string, string>,
  accountId?: string,
) => LambdaCall;

/**
 * AWS::Lambda::EventSourceMapping for Cloud Control (a mapping with filters, destinations,
 * batch-item failures ... is routed there), on the Lambda module's own store, so its poller
 * runs as for one the Lambda API made. The model is the API's view under CloudFormation's
 * names (`Id` for the UUID).
 */
export function mappingResourceHandler(store: LambdaStore, newCall: NewCall): ResourceHandler {
  const model = (mapping: MappingRecord): ResourceModel => {
    const view = mappings.mappingView(mapping, undefined);
    const apiOnly = [
      'UUID',
      'FunctionArn',
      'State',
      'LastModified',
      'LastProcessingResult',
      'StateTransitionReason',
    ];
    for (const member of apiOnly) {
      delete view[member];
    }
    return { ...view, Id: mapping.uuid, FunctionName: mapping.functionArn, Enabled: mapping.enabled };
  };
  const inRegion = (identifier: string, region: string) => {
    const mapping = store.mapping(identifier);
    return mapping?.region === region ? mapping : undefined;
  };
  return {
    async create(desired, region, accountId) {
      const view = (await translate(() =>
        mappings.createEventSourceMapping(newCall(region, desired, {}, accountId)),
      )) as { UUID: string };
      return { identifier: view.UUID, model: model(store.mapping(view.UUID)!) };
    },
    read(identifier, region) {
      const mapping = inRegion(identifier, region);
      return mapping ? model(mapping) : undefined;
    },
    async update(identifier, desired, region) {
      await translate(() =>
        mappings.updateEventSourceMapping(
          newCall(region, { Enabled: true, ...desired }, { UUID: identifier }),
        ),
      );
      return model(store.mapping(identifier)!);
    },
    async delete(identifier, region) {
      await translate(() => mappings.deleteEventSourceMapping(newCall(region, {}, { UUID: identifier })));
    },
    list(region) {
      return store
        .allMappings()
        .filter((mapping) => mapping.region === region)
        .map((mapping) => ({ identifier: mapping.uuid, model: model(mapping) }));
    },
  };
}

async function translate<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const code =
      error.code === 'ResourceNotFoundException'
        ? 'NotFound'
        : error.code === 'ResourceConflictException'
          ? 'AlreadyExists'
          : 'InvalidRequest';
    throw new HandlerError(code, error.message);
  }
}
