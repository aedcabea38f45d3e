import { el } from '../../xml.js';
import type { IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import { isAwsManaged, type PrincipalKind } from './model.js';
import { checkName, checkPolicyDocument } from './params.js';
import { checkBoundary } from './principal-ops.js';
import { encodeDocument, memberList, tagList } from './render.js';

/** Aggregate inline policy size per principal (AWS's quotas, in characters). */
const INLINE_SIZE_LIMIT: Record<PrincipalKind, number> = { Role: 10240, User: 2048, Group: 5120 };
const ATTACHED_LIMIT = 10;
const TAG_LIMIT = 50;

function putPolicy(kind: PrincipalKind): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const name = checkName(params.required('PolicyName'), 'policyName', 128);
    const document = checkPolicyDocument(params.required('PolicyDocument'));
    const next = { ...record.inlinePolicies, [name]: document };
    const size = Object.values(next).reduce((total, text) => total + text.replace(/\s/g, '').length, 0);
    if (size > INLINE_SIZE_LIMIT[kind]) {
      throw iamErrors.limitExceeded(
        `Maximum policy size of ${INLINE_SIZE_LIMIT[kind]} bytes exceeded for ${kind.toLowerCase()} ${record.name}`,
      );
    }
    record.inlinePolicies = next;
    await store.savePrincipal(record);
    return [];
  };
}

function inlineNotFound(kind: PrincipalKind, name: string) {
  return iamErrors.noSuchEntity(`The ${kind.toLowerCase()} policy with name ${name} cannot be found.`);
}

function getPolicy(kind: PrincipalKind): IamHandler {
  return ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const name = params.required('PolicyName');
    const document = record.inlinePolicies[name];
    if (document === undefined) throw inlineNotFound(kind, name);
    return [
      el(`${kind}Name`, record.name),
      el('PolicyName', name),
      el('PolicyDocument', encodeDocument(document)),
    ];
  };
}

function deletePolicy(kind: PrincipalKind): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const name = params.required('PolicyName');
    if (record.inlinePolicies[name] === undefined) throw inlineNotFound(kind, name);
    delete record.inlinePolicies[name];
    await store.savePrincipal(record);
    return [];
  };
}

function listPolicies(kind: PrincipalKind): IamHandler {
  return ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    return [memberList('PolicyNames', Object.keys(record.inlinePolicies).sort()), el('IsTruncated', false)];
  };
}

function attach(kind: PrincipalKind): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const arn = params.required('PolicyArn');
    if (!isAwsManaged(arn) && !store.findPolicy(arn)) {
      throw iamErrors.noSuchEntity(`Policy ${arn} does not exist or is not attachable.`);
    }
    if (record.attached.includes(arn)) return [];
    if (record.attached.length >= ATTACHED_LIMIT) {
      throw iamErrors.limitExceeded(`Cannot exceed quota for PoliciesPer${kind}: ${ATTACHED_LIMIT}`);
    }
    record.attached.push(arn);
    await store.savePrincipal(record);
    return [];
  };
}

function detach(kind: PrincipalKind): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const arn = params.required('PolicyArn');
    if (!record.attached.includes(arn)) throw iamErrors.noSuchEntity(`Policy ${arn} was not found.`);
    record.attached = record.attached.filter((attached) => attached !== arn);
    await store.savePrincipal(record);
    return [];
  };
}

function listAttached(kind: PrincipalKind): IamHandler {
  return ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const members = record.attached.map((arn) =>
      el('member', [el('PolicyName', arn.slice(arn.lastIndexOf('/') + 1)), el('PolicyArn', arn)]),
    );
    return [el('AttachedPolicies', members), el('IsTruncated', false)];
  };
}

function tag(kind: 'Role' | 'User'): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const incoming = params.tags();
    const tags = [...record.tags.filter((t) => !incoming.some((i) => i.Key === t.Key)), ...incoming];
    if (tags.length > TAG_LIMIT) {
      throw iamErrors.limitExceeded(`Cannot exceed quota for TagsPer${kind}: ${TAG_LIMIT}`);
    }
    record.tags = tags;
    await store.savePrincipal(record);
    return [];
  };
}

function untag(kind: 'Role' | 'User'): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    const keys = new Set(params.members('TagKeys'));
    record.tags = record.tags.filter((t) => !keys.has(t.Key));
    await store.savePrincipal(record);
    return [];
  };
}

function listTags(kind: 'Role' | 'User'): IamHandler {
  return ({ params, store }) => [
    tagList(store.principal(kind, params.required(`${kind}Name`)).tags),
    el('IsTruncated', false),
  ];
}

function putBoundary(kind: 'Role' | 'User'): IamHandler {
  return async (call) => {
    const record = call.store.principal(kind, call.params.required(`${kind}Name`));
    record.permissionsBoundary = checkBoundary(call, call.params.required('PermissionsBoundary'));
    await call.store.savePrincipal(record);
    return [];
  };
}

function deleteBoundary(kind: 'Role' | 'User'): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    delete record.permissionsBoundary;
    await store.savePrincipal(record);
    return [];
  };
}

const ALL = ['Role', 'User', 'Group'] as const;
const TAGGABLE = ['Role', 'User'] as const;

/** Inline and attached policies of roles, users and groups; tags and boundaries of roles and users. */
export const principalPolicyHandlers: Record<string, IamHandler> = Object.fromEntries([
  ...ALL.flatMap((kind) => [
    [`Put${kind}Policy`, putPolicy(kind)],
    [`Get${kind}Policy`, getPolicy(kind)],
    [`Delete${kind}Policy`, deletePolicy(kind)],
    [`List${kind}Policies`, listPolicies(kind)],
    [`Attach${kind}Policy`, attach(kind)],
    [`Detach${kind}Policy`, detach(kind)],
    [`ListAttached${kind}Policies`, listAttached(kind)],
  ]),
  ...TAGGABLE.flatMap((kind) => [
    [`Tag${kind}`, tag(kind)],
    [`Untag${kind}`, untag(kind)],
    [`List${kind}Tags`, listTags(kind)],
    [`Put${kind}PermissionsBoundary`, putBoundary(kind)],
    [`Delete${kind}PermissionsBoundary`, deleteBoundary(kind)],
  ]),
]) as Record<string, IamHandler>;
