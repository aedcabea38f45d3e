import { IAMClient } from '@aws-sdk/client-iam';
import { awsErrorCode } from '../../aws/error-class.js';
import { nameFromToken, tokenPhysicalName, type NameRules } from '../physical-names.js';
import { userSuppliedName } from '../user-supplied-names.js';

import type { CreationIdentity, JsonObject, ProviderContext } from '../provider.js';
import { resourceMade, sameIdentity, type MadeByAttempts, type MadeResource } from '../resource-made.js';
import type { ClientTuning } from '../../aws/index.js';

export function isNoSuchEntity(error: unknown): boolean {
  const code = awsErrorCode(error);
  return code === 'NoSuchEntity' || code === 'NoSuchEntityException';
}

/** What `read` answers; NoSuchEntity means the entity is not there, which reads as undefined. */
export async function unlessNoSuchEntity<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isNoSuchEntity(error)) return undefined;
    throw error;
  }
}

/** IAM is global: its API is signed for the partition's home region. */
export function iamRegion(region: string): string {
  if (region.startsWith('cn-')) return 'cn-north-1';
  if (region.startsWith('us-gov-')) return 'us-gov-west-1';
  return 'us-east-1';
}

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function iamClient(context: ProviderContext, tuning: ClientTuning = {}): Promise<IAMClient> {
  return context.clients.client(IAMClient, iamRegion(context.region), tuning);
}

/** IAM names take letters, digits and `_+=,.@-`. */
const IAM_CHARACTERS = '_+=,.@-';

/** Name limits per type (roles and users 64, the rest 128). */
export const NAME_RULES: Record<string, NameRules> = {
  'AWS::IAM::Role': { maxLength: 64, extraCharacters: IAM_CHARACTERS },
  'AWS::IAM::User': { maxLength: 64, extraCharacters: IAM_CHARACTERS },
  'AWS::IAM::Group': { maxLength: 128, extraCharacters: IAM_CHARACTERS },
  'AWS::IAM::ManagedPolicy': { maxLength: 128, extraCharacters: IAM_CHARACTERS },
  'AWS::IAM::InstanceProfile': { maxLength: 128, extraCharacters: IAM_CHARACTERS },
  'AWS::IAM::Policy': { maxLength: 128, extraCharacters: IAM_CHARACTERS },
};

/** The name the template gives (prefixed under --prefix-user-supplied-names), else a CloudFormation-style generated one. */
export function nameFor(
  type: string,
  given: unknown,
  context: ProviderContext,
  request: { logicalId: string; idempotencyToken?: string },
): string {
  if (typeof given === 'string' && given !== '') {
    return userSuppliedName(type, given, context.stackName, context.prefixUserSuppliedNames === true);
  }
  return tokenPhysicalName(context.stackName, request, NAME_RULES[type]!);
}

/**
 * The name a create with this token generated, which only that create can hold: what
 * `locate` reads. Undefined for a name the template gives (a match proves nothing) or
 * without a token.
 */
export function generatedName(
  type: string,
  given: unknown,
  context: ProviderContext,
  request: { logicalId: string; idempotencyToken?: string },
): string | undefined {
  return adoptable(given, request) ? nameFor(type, given, context, request) : undefined;
}

/**
 * IAM creates carry no idempotency token. When the name was generated from the engine's
 * token, nobody else can hold it, so "already exists" means an earlier attempt of this
 * same create succeeded (its response lost) and `find` adopts what it made. A name the
 * template gives proves nothing: the error stands.
 */
export async function createOrAdopt<T>(
  create: () => Promise<T>,
  find: () => Promise<T | undefined>,
  adoptable: boolean,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const code = awsErrorCode(error);
    if (!adoptable || (code !== 'EntityAlreadyExists' && code !== 'EntityAlreadyExistsException'))
      throw error;
    const existing = await find();
    if (existing === undefined) throw error;
    return existing;
  }
}

/** Whether a create may adopt an earlier attempt's resource (see `createOrAdopt`). */
export function adoptable(given: unknown, request: { idempotencyToken?: string }): boolean {
  return nameFromToken(given, request);
}

export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

/** A policy document as IAM takes it: CloudFormation gives an object (or, rarely, JSON text). */
export function documentText(document: unknown): string {
  return typeof document === 'string' ? document : JSON.stringify(document);
}

/** IAM returns documents URL-encoded JSON text. */
export function parseDocument(encoded: string | undefined): unknown {
  if (encoded === undefined) return undefined;
  const text = decodeURIComponent(encoded);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** CloudFormation may give numbers as strings (`"3600"`); IAM wants an Integer. */
export function integer(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}

export function changed(before: JsonObject, after: JsonObject, key: string): boolean {
  return JSON.stringify(before[key]) !== JSON.stringify(after[key]);
}

/**
 * A create that fails after its resource exists leaves nothing the engine records, so the
 * resource is removed before the error surfaces, unchanged (keeping its AWS name for the
 * retry classes). If the removal fails too, the resource is still there: the error is a
 * ResourceMadeError naming it, carrying the original error (spec 000), and `attempts`
 * remembers it so the retry of the same create takes it back (see `mayAdopt`).
 */
export async function undoCreate(
  made: MadeResource,
  remove: () => Promise<void>,
  error: unknown,
  attempts?: { made: MadeByAttempts; token: string | undefined },
): Promise<never> {
  try {
    await remove();
  } catch {
    throw attempts ? attempts.made.failed(attempts.token, made, error) : resourceMade(made, error);
  }
  attempts?.made.forget(attempts.token);
  throw error;
}

/**
 * Whether a create may adopt the entity holding `name` (see `createOrAdopt`): a generated
 * name, or the one an earlier attempt of this create made and could not remove.
 */
export function mayAdopt(
  given: unknown,
  request: { idempotencyToken?: string },
  earlier: MadeResource | undefined,
  name: string,
): boolean {
  return adoptable(given, request) || earlier?.physicalId === name;
}

/** `find`, narrowed to the entity an earlier attempt made when there was one (same creation identity). */
export function findEarlier<T>(
  find: () => Promise<T | undefined>,
  earlier: MadeResource | undefined,
  identityOf: (found: T) => CreationIdentity,
): () => Promise<T | undefined> {
  return async () => {
    const found = await find();
    if (found === undefined || !sameIdentity(earlier?.creationIdentity, identityOf(found))) return undefined;
    return found;
  };
}
