import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { isAwsManaged, newId, principalArn, type PrincipalRecord, type Tag } from './model.js';
import { checkName, checkPath, checkPolicyDocument } from './params.js';
import type { IamStore } from './store.js';

const text = (document: unknown) => (typeof document === 'string' ? document : JSON.stringify(document));

/** AWS::IAM::Role for Cloud Control, on the IAM module's own store (IAM is global: region ignored). */
export function roleResourceHandler(store: IamStore): ResourceHandler {
  const model = (record: PrincipalRecord): ResourceModel => ({
    RoleName: record.name,
    Arn: record.arn,
    RoleId: record.id,
    Path: record.path,
    AssumeRolePolicyDocument: JSON.parse(record.assumeRolePolicyDocument ?? '{}') as unknown,
    MaxSessionDuration: record.maxSessionDuration,
    ...(record.description !== undefined ? { Description: record.description } : {}),
    ...(record.permissionsBoundary !== undefined ? { PermissionsBoundary: record.permissionsBoundary } : {}),
    ...(record.tags.length > 0 ? { Tags: record.tags } : {}),
    ...(Object.keys(record.inlinePolicies).length > 0
      ? {
          Policies: Object.entries(record.inlinePolicies).map(([PolicyName, document]) => ({
            PolicyName,
            PolicyDocument: JSON.parse(document) as unknown,
          })),
        }
      : {}),
    ...(record.attached.length > 0 ? { ManagedPolicyArns: record.attached } : {}),
  });

  /** Applies the desired state's mutable properties to a record (create and update alike). */
  const apply = (record: PrincipalRecord, desired: ResourceModel): PrincipalRecord => {
    const policies = (desired.Policies ?? []) as Array<{ PolicyName: string; PolicyDocument: unknown }>;
    const attached = (desired.ManagedPolicyArns ?? []) as string[];
    for (const arn of [
      ...attached,
      ...(desired.PermissionsBoundary ? [String(desired.PermissionsBoundary)] : []),
    ]) {
      if (!isAwsManaged(arn) && !store.findPolicy(arn)) {
        throw new HandlerError('NotFound', `Policy ${arn} does not exist or is not attachable.`);
      }
    }
    const description = desired.Description as string | undefined;
    const boundary = desired.PermissionsBoundary as string | undefined;
    return {
      ...record,
      assumeRolePolicyDocument: checkPolicyDocument(text(desired.AssumeRolePolicyDocument), { trust: true }),
      maxSessionDuration: Number(desired.MaxSessionDuration ?? 3600),
      description,
      permissionsBoundary: boundary,
      tags: (desired.Tags ?? []) as Tag[],
      inlinePolicies: Object.fromEntries(
        policies.map((policy) => [policy.PolicyName, checkPolicyDocument(text(policy.PolicyDocument))]),
      ),
      attached: [...new Set(attached)],
    };
  };

  return {
    async create(desired, _region, accountId) {
      validateModel(desired);
      return asHandlerError(async () => {
        const name = checkName(
          typeof desired.RoleName === 'string' ? desired.RoleName : `CFN-Role-${randomString(12)}`,
          'roleName',
          64,
        );
        if (store.findPrincipal('Role', name))
          throw new HandlerError('AlreadyExists', `Role with name ${name} already exists.`);
        const path = checkPath(desired.Path as string | undefined);
        const now = Date.now();
        const record = apply(
          {
            kind: 'Role',
            name,
            path,
            id: newId('Role'),
            arn: principalArn(accountId, 'Role', path, name),
            createdAt: now,
            inlinePolicies: {},
            attached: [],
            tags: [],
          },
          desired,
        );
        await store.savePrincipal(record);
        return { identifier: name, model: model(record) };
      });
    },
    read(identifier) {
      const record = store.findPrincipal('Role', identifier);
      return record ? model(record) : undefined;
    },
    async update(identifier, desired) {
      validateModel(desired);
      return asHandlerError(async () => {
        const record = store.findPrincipal('Role', identifier);
        if (!record) throw notFound(identifier);
        const next = apply(record, desired);
        await store.savePrincipal(next);
        return model(next);
      });
    },
    async delete(identifier) {
      const record = store.findPrincipal('Role', identifier);
      if (!record) throw notFound(identifier);
      if (store.allProfiles().some((profile) => profile.roles.includes(record.name))) {
        throw new HandlerError(
          'ResourceConflict',
          'Cannot delete entity, must remove roles from instance profile first.',
        );
      }
      await store.deletePrincipal(record);
    },
    list() {
      return store.principalsOf('Role').map((record) => ({ identifier: record.name, model: model(record) }));
    },
  };
}

/** Cloud Control's schema check, with its messages: no unknown keys, every required one. */
function validateModel(desired: ResourceModel): void {
  const schema = sandboxSchemaFor('AWS::IAM::Role')!;
  const extraneous = Object.keys(desired).find((key) => !schema.props.includes(key));
  if (extraneous !== undefined) {
    throw new HandlerError(
      'InvalidRequest',
      `Model validation failed (#: extraneous key [${extraneous}] is not permitted)`,
    );
  }
  const missing = (schema.required ?? []).find((key) => desired[key] === undefined);
  if (missing !== undefined) {
    throw new HandlerError(
      'InvalidRequest',
      `Model validation failed (#: required key [${missing}] not found)`,
    );
  }
}

function notFound(name: string): HandlerError {
  return new HandlerError('NotFound', `The role with name ${name} cannot be found.`);
}

/** The IAM API's validation errors, as a Cloud Control handler reports them. */
async function asHandlerError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SandboxError) throw new HandlerError('InvalidRequest', error.message);
    throw error;
  }
}
