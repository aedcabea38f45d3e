import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { hasUpdateHandler, sandboxSchemaFor } from '../../resource-index.js';
import type { SandboxContext } from '../../service-module.js';
import { optionalString, requiredString } from '../../protocols/json.js';
import { ccErrors } from './cc-errors.js';
import type { GenericStore } from './generic-store.js';
import { applyPatch, parsePatch, PatchError } from './json-patch.js';
import { page } from '../../protocols/pagination.js';
import { progressEvent, type Outcome, type RequestRecord, type RequestTracker } from './requests.js';

type Input = Record<string, unknown>;

export interface CcDeps {
  context: SandboxContext;
  generic: GenericStore;
  tracker: RequestTracker;
}

/** The module owning `type` (S3 for buckets, SSM for parameters), else the generic store. */
export function handlerFor(deps: CcDeps, type: string): ResourceHandler {
  if (!sandboxSchemaFor(type)) throw ccErrors.typeNotFound(type);
  return deps.context.resources.get(type) ?? deps.generic.handlerFor(type);
}

/** Runs an accepted request when its delay has passed. */
export function executor(deps: CcDeps): (record: RequestRecord) => Promise<Outcome> {
  return async (record) => {
    const handler = handlerFor(deps, record.typeName);
    const accountId = record.accountId ?? deps.context.accountId;
    switch (record.operation) {
      case 'CREATE':
        return handler.create(JSON.parse(record.desiredState!) as ResourceModel, record.region, accountId);
      case 'UPDATE': {
        const identifier = record.identifier!;
        const current = handler.read(identifier, record.region, accountId);
        if (!current)
          throw new HandlerError(
            'NotFound',
            `Resource of type '${record.typeName}' with identifier '${identifier}' was not found.`,
          );
        let desired: ResourceModel;
        try {
          desired = applyPatch(current, parsePatch(record.patchDocument!));
        } catch (error) {
          if (error instanceof PatchError) throw new HandlerError('InvalidRequest', error.message);
          throw error;
        }
        const model = await handler.update(
          identifier,
          writableOnly(record.typeName, desired),
          record.region,
          accountId,
        );
        return { identifier, model };
      }
      case 'DELETE':
        await handler.delete(record.identifier!, record.region, accountId);
        return { identifier: record.identifier! };
    }
  };
}

/** The desired state without read-only values (the patch was applied to the full model). */
function writableOnly(type: string, model: ResourceModel): ResourceModel {
  const props = new Set(sandboxSchemaFor(type)!.props);
  return Object.fromEntries(Object.entries(model).filter(([key]) => props.has(key)));
}

/** Where a call acts: the signing region and the request's account. */
export interface CallScope {
  region: string;
  accountId: string;
}

async function accept(
  deps: CcDeps,
  { region, accountId }: CallScope,
  input: Input,
  fields: Pick<RequestRecord, 'typeName' | 'operation'> & Partial<RequestRecord>,
): Promise<Record<string, unknown>> {
  const clientToken = optionalString(input, 'ClientToken');
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        fields.operation,
        fields.typeName,
        fields.identifier,
        fields.desiredState,
        fields.patchDocument,
      ]),
    )
    .digest('hex');
  if (clientToken !== undefined) {
    const earlier = deps.tracker.byClientToken(region, clientToken);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) throw ccErrors.clientTokenConflict(clientToken);
      return { ProgressEvent: progressEvent(earlier) };
    }
  }
  if (fields.identifier !== undefined) {
    const busy = deps.tracker.inFlightOn(fields.typeName, region, fields.identifier);
    if (busy) throw ccErrors.resourceConflict(fields.typeName, fields.identifier, busy.requestToken);
  }
  const action = fields.operation.toLowerCase() as 'create' | 'update' | 'delete';
  const record = await deps.tracker.accept(
    { ...fields, region, accountId, fingerprint, ...(clientToken !== undefined ? { clientToken } : {}) },
    deps.context.latency.forCloudControl(fields.typeName, action),
  );
  return { ProgressEvent: progressEvent(record) };
}

export async function createResource(deps: CcDeps, scope: CallScope, input: Input): Promise<unknown> {
  const typeName = requiredString(input, 'TypeName');
  const desiredState = requiredString(input, 'DesiredState');
  handlerFor(deps, typeName);
  if (!isJsonObject(desiredState)) throw ccErrors.invalidRequest('DesiredState is not a valid JSON object.');
  return accept(deps, scope, input, { typeName, operation: 'CREATE', desiredState });
}

export async function updateResource(deps: CcDeps, scope: CallScope, input: Input): Promise<unknown> {
  const typeName = requiredString(input, 'TypeName');
  const identifier = requiredString(input, 'Identifier');
  const patchDocument = requiredString(input, 'PatchDocument');
  handlerFor(deps, typeName);
  if (!hasUpdateHandler(typeName)) throw ccErrors.unsupportedAction(typeName, 'UPDATE');
  try {
    parsePatch(patchDocument);
  } catch (error) {
    throw ccErrors.invalidRequest((error as Error).message);
  }
  return accept(deps, scope, input, { typeName, operation: 'UPDATE', identifier, patchDocument });
}

export async function deleteResource(deps: CcDeps, scope: CallScope, input: Input): Promise<unknown> {
  const typeName = requiredString(input, 'TypeName');
  const identifier = requiredString(input, 'Identifier');
  handlerFor(deps, typeName);
  return accept(deps, scope, input, { typeName, operation: 'DELETE', identifier });
}

export async function getResource(
  deps: CcDeps,
  { region, accountId }: CallScope,
  input: Input,
): Promise<unknown> {
  const typeName = requiredString(input, 'TypeName');
  const identifier = requiredString(input, 'Identifier');
  const handler = handlerFor(deps, typeName);
  const readDelay = deps.context.latency.forType(typeName, 'read');
  if (readDelay > 0) await sleep(readDelay);
  const model = handler.read(identifier, region, accountId);
  if (!model) throw ccErrors.resourceNotFound(typeName, identifier);
  return {
    TypeName: typeName,
    ResourceDescription: { Identifier: identifier, Properties: JSON.stringify(model) },
  };
}

export async function listResources(
  deps: CcDeps,
  { region, accountId }: CallScope,
  input: Input,
): Promise<unknown> {
  const typeName = requiredString(input, 'TypeName');
  const entries = handlerFor(deps, typeName)
    .list(region, accountId)
    .sort((a, b) => a.identifier.localeCompare(b.identifier));
  const { items, nextToken } = page(entries, input.MaxResults, input.NextToken);
  return {
    TypeName: typeName,
    ResourceDescriptions: items.map((entry) => ({
      Identifier: entry.identifier,
      Properties: JSON.stringify(entry.model),
    })),
    ...(nextToken ? { NextToken: nextToken } : {}),
  };
}

export async function getResourceRequestStatus(deps: CcDeps, input: Input): Promise<unknown> {
  const token = requiredString(input, 'RequestToken');
  const record = deps.tracker.get(token);
  if (!record) throw ccErrors.requestTokenNotFound(token);
  return { ProgressEvent: progressEvent(record) };
}

export async function cancelResourceRequest(deps: CcDeps, input: Input): Promise<unknown> {
  const token = requiredString(input, 'RequestToken');
  const record = deps.tracker.get(token);
  if (!record) throw ccErrors.requestTokenNotFound(token);
  if (!(await deps.tracker.cancel(record))) throw ccErrors.notCancellable(token);
  // The API answers while the cancel is under way; a later status read sees it complete.
  return { ProgressEvent: progressEvent(record, 'CANCEL_IN_PROGRESS') };
}

export async function listResourceRequests(deps: CcDeps, region: string, input: Input): Promise<unknown> {
  const filter = (input.ResourceRequestStatusFilter ?? {}) as {
    Operations?: string[];
    OperationStatuses?: string[];
  };
  const matching = deps.tracker
    .all()
    .filter((record) => record.region === region)
    .filter((record) => !filter.Operations?.length || filter.Operations.includes(record.operation))
    .filter((record) => !filter.OperationStatuses?.length || filter.OperationStatuses.includes(record.status))
    .sort((a, b) => b.eventTime - a.eventTime);
  const { items, nextToken } = page(matching, input.MaxResults, input.NextToken);
  return {
    ResourceRequestStatusSummaries: items.map((record) => progressEvent(record)),
    ...(nextToken ? { NextToken: nextToken } : {}),
  };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
