import {
  HandlerError,
  type ResourceEntry,
  type ResourceHandler,
  type ResourceModel,
} from '../../resources.js';
import type { PrincipalKind, PrincipalRecord } from './model.js';
import { checkPolicyDocument } from './params.js';
import type { IamStore } from './store.js';

const text = (document: unknown) => (typeof document === 'string' ? document : JSON.stringify(document));

/**
 * AWS::IAM::RolePolicy, UserPolicy and GroupPolicy for Cloud Control, on the principal's own
 * inline policies: IAM holds them as part of the principal, so they go when it goes, and a
 * principal re-created under the same name starts without them (identifier `Policy|Principal`).
 */
export function inlinePolicyResourceHandler(store: IamStore, kind: PrincipalKind): ResourceHandler {
  const nameProperty = `${kind}Name`;
  const entry = (record: PrincipalRecord, PolicyName: string): ResourceEntry => ({
    identifier: `${PolicyName}|${record.name}`,
    model: {
      PolicyName,
      [nameProperty]: record.name,
      PolicyDocument: JSON.parse(record.inlinePolicies[PolicyName]!) as unknown,
    },
  });
  const parse = (identifier: string) => {
    const [policyName = '', principalName = ''] = identifier.split('|');
    return { policyName, record: store.findPrincipal(kind, principalName) };
  };
  const put = async (record: PrincipalRecord, policyName: string, desired: ResourceModel) => {
    record.inlinePolicies = {
      ...record.inlinePolicies,
      [policyName]: checkPolicyDocument(text(desired.PolicyDocument)),
    };
    await store.savePrincipal(record);
  };
  return {
    async create(desired) {
      const policyName = String(desired.PolicyName ?? '');
      const record = store.findPrincipal(kind, String(desired[nameProperty] ?? ''));
      if (!record)
        throw new HandlerError(
          'NotFound',
          `The ${kind.toLowerCase()} ${String(desired[nameProperty])} cannot be found.`,
        );
      if (record.inlinePolicies[policyName] !== undefined)
        throw new HandlerError('AlreadyExists', `${policyName}|${record.name} already exists.`);
      await put(record, policyName, desired);
      return entry(record, policyName);
    },
    read(identifier) {
      const { policyName, record } = parse(identifier);
      return record && record.inlinePolicies[policyName] !== undefined
        ? entry(record, policyName).model
        : undefined;
    },
    async update(identifier, desired) {
      const { policyName, record } = parse(identifier);
      if (!record || record.inlinePolicies[policyName] === undefined)
        throw new HandlerError('NotFound', `${identifier} cannot be found.`);
      await put(record, policyName, desired);
      return entry(record, policyName).model;
    },
    async delete(identifier) {
      const { policyName, record } = parse(identifier);
      if (!record || record.inlinePolicies[policyName] === undefined)
        throw new HandlerError('NotFound', `${identifier} cannot be found.`);
      delete record.inlinePolicies[policyName];
      await store.savePrincipal(record);
    },
    list() {
      return store.principalsOf(kind).flatMap((record) =>
        Object.keys(record.inlinePolicies)
          .sort()
          .map((name) => entry(record, name)),
      );
    },
  };
}
