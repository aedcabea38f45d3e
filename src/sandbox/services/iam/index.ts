import { queryAction, queryCodec, queryParams, queryResult } from '../../protocols/query.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import type { IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import { inlinePolicyResourceHandler } from './inline-policy-resource.js';
import { instanceProfileHandlers } from './instance-profile-ops.js';
import { managedPolicyHandlers } from './managed-policy-ops.js';
import { OidcProviders } from './oidc-providers.js';
import { Params } from './params.js';
import { principalHandlers } from './principal-ops.js';
import { principalPolicyHandlers } from './principal-policies.js';
import { roleReader } from '../../ports/index.js';
import { iamRoleDirectory } from './role-directory.js';
import { roleReaderPort } from './role-reader.js';
import { roleResourceHandler } from './role-resource.js';
import { IamStore } from './store.js';

const XMLNS = 'https://iam.amazonaws.com/doc/2010-05-08/';

const HANDLERS: Record<string, IamHandler> = {
  ...principalHandlers,
  ...principalPolicyHandlers,
  ...managedPolicyHandlers,
  ...instanceProfileHandlers,
};

/** Every IAM read is a Get* or List*; everything else changes state. */
export const isMutatingIam = (operation: string): boolean => !/^(Get|List)/.test(operation);

/** IAM over the query protocol; global, so the signing region is ignored. */
export const createIamService: ServiceModuleFactory = async (context) => {
  const store = await IamStore.load(context.storage);
  iamRoleDirectory(context).bind(store);
  roleReader.expose(context, roleReaderPort(context, store));
  context.resources.register('AWS::IAM::Role', roleResourceHandler(store));
  for (const kind of ['Role', 'User', 'Group'] as const)
    context.resources.register(`AWS::IAM::${kind}Policy`, inlinePolicyResourceHandler(store, kind));
  const oidcProviders = await OidcProviders.load(context.storage);
  context.resources.register('AWS::IAM::OIDCProvider', oidcProviders.resourceHandler());
  const handlers: Record<string, IamHandler> = { ...HANDLERS, ...oidcProviders.handlers() };
  const module: ServiceModule = {
    name: 'iam',
    codec: queryCodec,
    operation: queryAction,
    isMutating: isMutatingIam,
    async handle(request, operation) {
      const handler = handlers[operation];
      if (!handler) throw iamErrors.invalidAction(operation);
      const call = {
        store,
        accountId: request.accountId,
        params: new Params(queryParams(request)),
        now: Date.now(),
      };
      return queryResult(operation, XMLNS, await handler(call), request);
    },
    inventory() {
      const principals = (kind: 'Role' | 'User' | 'Group') =>
        store
          .principalsOf(kind)
          .map((record) => ({ id: record.name, arn: record.arn, [`${kind}Id`]: record.id }));
      return {
        'AWS::IAM::Role': principals('Role'),
        'AWS::IAM::User': principals('User'),
        'AWS::IAM::Group': principals('Group'),
        'AWS::IAM::ManagedPolicy': store
          .allPolicies()
          .map((record) => ({ id: record.arn, name: record.name, versions: record.versions.length })),
        'AWS::IAM::OIDCProvider': oidcProviders.all().map((record) => ({ id: record.arn, url: record.url })),
        'AWS::IAM::InstanceProfile': store
          .allProfiles()
          .map((record) => ({ id: record.name, arn: record.arn, roles: record.roles })),
        // Inline policies are not listed: IAM holds them as part of their principal (no
        // resource of their own), and they go when the principal goes.
      };
    },
  };
  return module;
};
