import { randomString } from '../../ids.js';

export type PrincipalKind = 'Role' | 'User' | 'Group';

export interface Tag {
  Key: string;
  Value: string;
}

/** A role, user or group: what the three share (inline and attached policies) plus per-kind fields. */
export interface PrincipalRecord {
  kind: PrincipalKind;
  name: string;
  path: string;
  id: string;
  arn: string;
  /** Epoch ms; with `id` it is the creation identity (ids are never reused). */
  createdAt: number;
  /** Inline policies: name → document as sent (JSON text). */
  inlinePolicies: Record<string, string>;
  /** Attached managed policy ARNs, in attach order. */
  attached: string[];
  tags: Tag[];
  permissionsBoundary?: string;
  /** Roles only. */
  assumeRolePolicyDocument?: string;
  description?: string;
  maxSessionDuration?: number;
  /** Groups only: member user names. */
  users?: string[];
}

export interface PolicyVersionRecord {
  versionId: string;
  document: string;
  createdAt: number;
}

export interface ManagedPolicyRecord {
  name: string;
  path: string;
  id: string;
  arn: string;
  description?: string;
  createdAt: number;
  updatedAt: number;
  defaultVersionId: string;
  nextVersion: number;
  /** Oldest first. */
  versions: PolicyVersionRecord[];
}

export interface InstanceProfileRecord {
  name: string;
  path: string;
  id: string;
  arn: string;
  createdAt: number;
  roles: string[];
}

const ID_PREFIX = { Role: 'AROA', User: 'AIDA', Group: 'AGPA', Policy: 'ANPA', InstanceProfile: 'AIPA' };
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A unique id as IAM makes them: a 4-letter type prefix and 17 upper-case characters. */
export function newId(kind: keyof typeof ID_PREFIX): string {
  return `${ID_PREFIX[kind]}${randomString(17, UPPER_ALNUM)}`;
}

const ARN_KIND = { Role: 'role', User: 'user', Group: 'group' } as const;

export function principalArn(accountId: string, kind: PrincipalKind, path: string, name: string): string {
  return `arn:aws:iam::${accountId}:${ARN_KIND[kind]}${path}${name}`;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** AWS-managed policies (`arn:aws:iam::aws:policy/...`) exist in every account. */
export function isAwsManaged(arn: string): boolean {
  return /^arn:aws[\w-]*:iam::aws:policy\//.test(arn);
}
