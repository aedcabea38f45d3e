import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResourceAction } from '../../../admin/latency.js';
import { hasUpdateHandler, sandboxSchemaFor } from '../../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../../resources.js';
import type { SandboxContext } from '../../../service-module.js';
import { resolveDynamicReferences, type DynamicReference } from '../../../../template/index.js';
import type { StackRecord, StackResourceRecord } from '../model/types.js';
import { isCustomResource, isInternalType, NESTED_STACK } from '../template/source.js';
import type { CustomResources } from './custom-resources.js';
import { ssmParameterValue } from './evaluation.js';
import { StepFailure } from './failures.js';

/** What a resource is known by once it exists. */
export interface Provisioned {
  /** Ref's value and DescribeStackResources' PhysicalResourceId. */
  physicalId: string;
  /** The handler's identifier when it differs from physicalId. */
  identifier?: string;
  attributes: Record<string, unknown>;
}

export interface ResourceRequest {
  stack: StackRecord;
  logicalId: string;
  type: string;
  properties: Record<string, unknown>;
}

/**
 * Nested stacks, which the operations run (given to the provisioner so it needs no import of
 * them). An update applies the child's template and leaves its cleanup, or its rollback, to
 * the parent's end.
 */
export interface NestedStackOps {
  create(request: ResourceRequest): Promise<Provisioned>;
  update(request: ResourceRequest, record: StackResourceRecord): Promise<Provisioned>;
  delete(stack: StackRecord, record: StackResourceRecord): Promise<void>;
  finishUpdate(record: StackResourceRecord): Promise<void>;
  rollbackUpdate(record: StackResourceRecord): Promise<void>;
  /** A stack an IMPORT may nest, by its id; undefined when there is none. */
  read(parent: StackRecord, stackId: string): ResourceModel | undefined;
  /** Refuses (StepFailure) nesting the stack under `parent` with these properties. */
  checkAdoption(parent: StackRecord, stackId: string, properties: Record<string, unknown>): Promise<void>;
  /** Makes the stack a nested stack of `parent`, once its IMPORT completes. */
  adopt(parent: StackRecord, stackId: string): Promise<void>;
}

/**
 * One resource's create, update and delete, through the resource handlers the sandbox's
 * Cloud Control uses (`context.resources`), custom resources, or nested stacks; each after
 * the latency the model sets for its type and action.
 */
export class Provisioner {
  constructor(
    private readonly context: SandboxContext,
    private readonly custom: CustomResources,
    private readonly nested: NestedStackOps,
  ) {}

  /** Whether the type updates in place (seed 004: else it is replaced). */
  canUpdate(type: string): boolean {
    return type === NESTED_STACK || isCustomResource(type) || isInternalType(type) || hasUpdateHandler(type);
  }

  createOnlyProperties(type: string): readonly string[] {
    if (isCustomResource(type)) return ['ServiceToken'];
    return sandboxSchemaFor(type)?.replace ?? [];
  }

  async create(request: ResourceRequest): Promise<Provisioned> {
    await this.delay(request.type, 'create');
    if (request.type === NESTED_STACK) return this.nested.create(request);
    if (isInternalType(request.type)) return { physicalId: randomUUID(), attributes: {} };
    if (isCustomResource(request.type)) {
      const answer = await this.custom.send({ ...request, requestType: 'Create' });
      return { physicalId: answer.physicalId, attributes: answer.data };
    }
    const { stack } = request;
    const desired = await this.resolved(stack, request.properties);
    const made = await this.handler(request.type).create(desired, stack.region, stack.accountId);
    return provisioned(request.type, made.identifier, made.model);
  }

  async update(request: ResourceRequest, record: StackResourceRecord): Promise<Provisioned> {
    await this.delay(request.type, 'update');
    if (request.type === NESTED_STACK) return this.nested.update(request, record);
    if (isInternalType(request.type)) return { physicalId: record.physicalId!, attributes: {} };
    if (isCustomResource(request.type)) {
      const answer = await this.custom.send({
        ...request,
        requestType: 'Update',
        oldProperties: record.properties,
        physicalId: record.physicalId,
      });
      return { physicalId: answer.physicalId, attributes: answer.data };
    }
    const { stack } = request;
    const identifier = identifierOf(record);
    const desired = await this.resolved(stack, keepGeneratedNames(request.type, request.properties, record));
    const model = await this.handler(request.type).update(identifier, desired, stack.region, stack.accountId);
    return provisioned(request.type, identifier, model);
  }

  /** Deletes the resource; one that is already gone counts as deleted, as on AWS. */
  async delete(stack: StackRecord, record: StackResourceRecord): Promise<void> {
    if (record.physicalId === undefined) return;
    await this.delay(record.type, 'delete');
    if (record.type === NESTED_STACK) return this.nested.delete(stack, record);
    if (isInternalType(record.type)) return;
    if (isCustomResource(record.type)) {
      await this.custom.send({
        requestType: 'Delete',
        stack,
        logicalId: record.logicalId,
        type: record.type,
        properties: record.properties,
        physicalId: record.physicalId,
      });
      return;
    }
    try {
      await this.handler(record.type).delete(identifierOf(record), stack.region, stack.accountId);
    } catch (error) {
      if (error instanceof HandlerError && error.errorCode === 'NotFound') return;
      throw error;
    }
  }

  /** An existing resource to import, by its handler identifier; undefined when there is none. */
  read(stack: StackRecord, type: string, identifier: string): ResourceModel | undefined {
    if (type === NESTED_STACK) return this.nested.read(stack, identifier);
    return this.handler(type).read(identifier, stack.region, stack.accountId);
  }

  checkNestedAdoption(
    parent: StackRecord,
    stackId: string,
    properties: Record<string, unknown>,
  ): Promise<void> {
    return this.nested.checkAdoption(parent, stackId, properties);
  }

  adoptNested(parent: StackRecord, stackId: string): Promise<void> {
    return this.nested.adopt(parent, stackId);
  }

  /** A resource to import, as the stack will record it. */
  imported(type: string, identifier: string, model: ResourceModel): Provisioned {
    return provisioned(type, identifier, model);
  }

  private handler(type: string): ResourceHandler {
    const handler = this.context.resources.resolve(type);
    if (!handler) throw new StepFailure(`Template format error: Unrecognized resource types: [${type}]`);
    return handler;
  }

  private async delay(type: string, action: ResourceAction): Promise<void> {
    const ms = this.context.latency.forType(type, action);
    if (ms > 0) await sleep(ms);
  }

  /** Properties with `{{resolve:ssm:...}}` references read, only for the copy sent to the handler. */
  private resolved(stack: StackRecord, properties: Record<string, unknown>): Promise<ResourceModel> {
    return resolveDynamicReferences(properties, async (reference: DynamicReference) => {
      if (reference.service === 'secretsmanager') {
        throw new StepFailure(
          `Could not resolve ${reference.text}: the cdkd sandbox's CloudFormation resolves ssm and ssm-secure references only`,
        );
      }
      const value = ssmParameterValue(this.context, reference.key, stack);
      if (value === undefined) {
        throw new StepFailure(`SSM parameter ${reference.key} in ${reference.text} does not exist`);
      }
      return value;
    }) as Promise<ResourceModel>;
  }
}

/**
 * The create-only properties the template leaves out but the resource has (a name
 * CloudFormation generated), carried into an in-place update, which keeps them as AWS does.
 */
function keepGeneratedNames(
  type: string,
  properties: Record<string, unknown>,
  record: StackResourceRecord,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of sandboxSchemaFor(type)?.replace ?? []) {
    if (properties[name] === undefined && record.attributes[name] !== undefined)
      kept[name] = record.attributes[name];
  }
  return { ...kept, ...properties };
}

/** What the handler's identifier is for a record (physical id unless recorded apart). */
export function identifierOf(record: StackResourceRecord): string {
  return record.identifier ?? record.physicalId ?? '';
}

/**
 * Ref's value: the type's ref identifier read from the model when the schema names one
 * that differs from the handler's identifier (an API Gateway resource's id), else the identifier.
 */
function provisioned(type: string, identifier: string, model: ResourceModel): Provisioned {
  const schema = sandboxSchemaFor(type);
  const refParts = schema?.refId ?? schema?.id ?? [];
  const values = refParts.map((name) => model[name]);
  const ref =
    values.length > 0 && values.every((value) => typeof value === 'string' || typeof value === 'number')
      ? values.map(String).join('|')
      : identifier;
  return {
    physicalId: ref,
    ...(ref !== identifier ? { identifier } : {}),
    attributes: model,
  };
}
