import { CdkdError, messageOf, type ErrorCode } from '../../errors.js';
import { decideNameCollision } from '../../plan/index.js';
import type { NameLookup, Provider, ProviderContext, ResourceRequest } from '../../providers/index.js';
import { isCustomResourceType } from '../../providers/handled-types.js';
import { foldAscii } from '../../resource-types/index.js';
import { newResourceHoldsName } from '../../rollback-decisions/index.js';
import type { ResourceRecord } from '../../state/index.js';
import {
  globalNameOf,
  parentPrefixedIdOf,
  schemaFor,
  type ParentPrefixedId,
} from '../../resource-types/index.js';

/** What looking a create's name up found: nothing to look up, the answer, or why it could not run. */
export type NameCheck =
  | { kind: 'not-looked-up' }
  | { kind: 'free'; name: string }
  | { kind: 'held'; name: string; holder: string }
  | { kind: 'failed'; error: unknown };

/** Runs a provider call under the retry schedules of its error class. */
export type Retry = <T>(label: string, call: () => Promise<T>) => Promise<T>;

/**
 * One read per create under a name the template gives, none for a generated name; a
 * throttled read is retried like any provider call before it counts as one that cannot run.
 */
export async function lookUpName(
  provider: Provider,
  request: ResourceRequest,
  context: ProviderContext,
  retry: Retry,
): Promise<NameCheck> {
  const nameHolder = provider.nameHolder?.bind(provider);
  if (!nameHolder) return { kind: 'not-looked-up' };
  let lookup: NameLookup | undefined;
  try {
    lookup = await retry(request.logicalId, () => nameHolder(request, context));
  } catch (error) {
    return { kind: 'failed', error };
  }
  if (!lookup) return { kind: 'not-looked-up' };
  return lookup.holder === undefined
    ? { kind: 'free', name: lookup.name }
    : { kind: 'held', name: lookup.name, holder: lookup.holder };
}

/**
 * A type whose name is not looked up (its create fails on a taken name rather than adopting
 * it) collides with the resource being replaced when the name the create sends is that
 * resource's recorded physical id: the record proves who holds it, so --replace can delete
 * it first (a fixed-name function whose create-only property changed) instead of a create
 * that fails on the name.
 */
export function recordedNameCheck(
  type: string,
  sent: Readonly<Record<string, unknown>>,
  old: ResourceRecord,
): NameCheck {
  const refId = schemaFor(type)?.refIdentifier ?? [];
  const name = refId.length === 1 ? sent[refId[0] as string] : undefined;
  return old.type === type && typeof name === 'string' && name === old.physicalId
    ? { kind: 'held', name, holder: old.physicalId }
    : { kind: 'not-looked-up' };
}

export interface CreateCollision {
  stackName: string;
  logicalId: string;
  type: string;
  check: Extract<NameCheck, { kind: 'held' | 'failed' }>;
  /** This stack's own resource under another logical id that holds the name, if any. */
  ownHolder?: string;
}

/**
 * Spec 002: a plain create under a taken name (or one whose lookup cannot run) is refused
 * with nothing created, as CloudFormation's "already exists"; even this stack's own leftover
 * is refused, since nothing in AWS tells it apart.
 */
export function createCollisionError(collision: CreateCollision): CdkdError {
  const { stackName, logicalId, type, check } = collision;
  const head = `Cannot create ${logicalId} (${type})`;
  if (check.kind === 'failed') {
    return new CdkdError(
      'NAMED_CREATE_COLLISION',
      `${head}: cdkd could not check whether its name is free (${messageOf(check.error)}), so nothing was created.`,
      {
        hint: `The create would take over a resource already holding the name. Let cdkd read ${type}, or fix the cause, then re-run the deploy.`,
        cause: check.error,
      },
    );
  }
  if (collision.ownHolder !== undefined) {
    return new CdkdError(
      'NAMED_CREATE_COLLISION',
      `${head}: its name ${check.name} is held by ${check.holder}, this stack's own ${collision.ownHolder}. Nothing was created.`,
      {
        hint: `Give ${logicalId} another name, or deploy the removal of ${collision.ownHolder} first, then re-run the deploy.`,
      },
    );
  }
  const global = globalNameOf(type);
  if (global) {
    return new CdkdError(
      'NAMED_CREATE_COLLISION',
      `${head}: a ${global.noun} named ${check.name} already exists (in this account or another). Nothing was created.`,
      {
        hint: `Delete that ${global.noun} if it is yours, or give ${logicalId} another ${global.nameProperty}, then re-run the deploy.`,
      },
    );
  }
  // The command ends the message itself, so it survives the deploy failure that wraps it.
  return new CdkdError(
    'NAMED_CREATE_COLLISION',
    `${head}: ${check.holder} already holds its name ${check.name}, and the create would take it over. Nothing was created. To adopt it: cdkd import ${stackName} --resource ${shellWord(`${logicalId}=${check.holder}`)}`,
    {
      hint: 'Delete that resource, or adopt it with the cdkd import command above once you have confirmed it is yours, then re-run the deploy.',
    },
  );
}

/** `word` as one shell word: single-quoted when it holds a character a shell reads (an id's `|` or `$`). */
function shellWord(word: string): string {
  return /^[\w./:@=+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The logical id other than `logicalId` whose record in `resources` is `holder` of `type`. */
export function ownHolderOf(
  resources: Readonly<Record<string, ResourceRecord>>,
  logicalId: string,
  type: string,
  holder: string,
): string | undefined {
  return Object.entries(resources).find(
    ([id, record]) => id !== logicalId && record.type === type && record.physicalId === holder,
  )?.[0];
}

export interface ReplacementNameInput {
  logicalId: string;
  type: string;
  /** The properties the new resource's create sends. */
  properties: Record<string, unknown>;
  old: ResourceRecord;
  check: NameCheck;
  updateReplacePolicy?: string;
  /** The --replace flag. */
  replace: boolean;
}

/**
 * Spec 002, "How --replace proves the old resource holds the name": the name is held by the
 * old resource only when the lookup found it by its recorded physical id, under the same
 * parent, and its record and last read-back agree on the name.
 */
export function oldHoldsName(input: ReplacementNameInput, holder: string, name: string): boolean {
  if (holder !== input.old.physicalId) return false;
  return newResourceHoldsName({
    type: input.type,
    newType: input.old.type,
    name,
    generated: false,
    generatedNameKnown: false,
    oldProperties: input.properties,
    newResource: {
      physicalId: input.old.physicalId,
      properties: input.old.properties,
      ...(input.old.observedProperties ? { observedProperties: input.old.observedProperties } : {}),
    },
  }).holds;
}

/**
 * How a replacement's create goes once its name is looked up: create first when the name is
 * free or not looked up, delete the old resource first when --replace may, and otherwise a
 * refusal (NAMED_REPLACEMENT_COLLISION) with nothing created or deleted.
 */
export function replacementOrder(input: ReplacementNameInput): 'create-first' | 'delete-first' {
  const { check, logicalId, type } = input;
  const head = `Cannot replace ${logicalId} (${type})`;
  // A custom resource handler picks the id, so it may hand back the old resource: --replace deletes it first.
  if (input.replace && bothCustom(input.old.type, type)) {
    const decision = decideNameCollision({
      oldType: input.old.type,
      newType: type,
      ...(input.updateReplacePolicy !== undefined && { updateReplacePolicy: input.updateReplacePolicy }),
      replace: true,
      oldHoldsName: 'unknown',
      equalCustomResourceId: true,
    });
    if (decision.action === 'delete-old-first') return 'delete-first';
    return refuse(
      decision.code,
      `${head}: ${decision.reason}, and its handler may hand that one back. Nothing was created or deleted.`,
      'Remove UpdateReplacePolicy: Retain, or give the new resource another logical id, then re-run the deploy.',
    );
  }
  if (check.kind === 'not-looked-up' || check.kind === 'free') return 'create-first';
  if (check.kind === 'failed') {
    return refuse(
      'NAMED_REPLACEMENT_COLLISION',
      `${head}: cdkd could not check whether the new resource's name is free (${messageOf(check.error)}). Nothing was created or deleted.`,
      `Let cdkd read ${type}, or fix the cause, then re-run the deploy.`,
    );
  }
  const decision = decideNameCollision({
    oldType: input.old.type,
    newType: type,
    ...(input.updateReplacePolicy !== undefined && { updateReplacePolicy: input.updateReplacePolicy }),
    replace: input.replace,
    oldHoldsName: oldHoldsName(input, check.holder, check.name),
  });
  if (decision.action === 'delete-old-first') return 'delete-first';
  const holder =
    check.holder === input.old.physicalId ? `${check.holder}, the resource being replaced` : check.holder;
  const message = `${head}: the new resource's name ${check.name} is held by ${holder}, so the create would take it over (${decision.reason}). Nothing was created or deleted.`;
  if (decision.adviseReplace) {
    return refuse(
      decision.code,
      message,
      `Give ${logicalId} another name, or pass --replace to delete ${input.old.physicalId} first and then create the new resource (it is absent in between).`,
    );
  }
  const unrelated =
    input.old.type !== type ? ` The holder may be an unrelated ${type}, which --replace cannot free.` : '';
  return refuse(
    decision.code,
    `${message}${unrelated}`,
    'Remove or rename whatever holds the name if it is yours (if that is the resource being replaced, delete it by hand), then re-run the deploy.',
  );
}

type Identified = Pick<ResourceRecord, 'type' | 'physicalId' | 'properties'>;

/**
 * Spec 002 "Equal physical ids across a type change": whether the resource a replacement's
 * create returned under the old resource's id is the old resource itself. Across two types it
 * is not (an SSM parameter and a log group can share a bare name), except between two custom
 * resource types, whose handler picks the id. Within one type it is, except two resources
 * under different parents that share a parent-prefixed id (two Glue tables in different
 * databases, through a `|` in a name).
 */
export function isOldResource(old: Identified, made: Identified): boolean {
  if (old.physicalId !== made.physicalId) return false;
  if (old.type !== made.type) return bothCustom(old.type, made.type);
  const prefixed = parentPrefixedIdOf(made.type);
  return !(prefixed && parentsApart(old, made, prefixed));
}

/** Both records' parents prefix the shared id and differ (compared as Glue compares them, ASCII case folded). */
function parentsApart(old: Identified, made: Identified, prefixed: ParentPrefixedId): boolean {
  const parents = [old.properties[prefixed.parentProperty], made.properties[prefixed.parentProperty]];
  if (!parents.every((parent): parent is string => typeof parent === 'string')) return false;
  const id = foldAscii(made.physicalId);
  const [a, b] = parents.map(foldAscii) as [string, string];
  return id.startsWith(`${a}${prefixed.separator}`) && id.startsWith(`${b}${prefixed.separator}`) && a !== b;
}

/**
 * The refusal when a create-first replacement between two custom resource types got the old
 * resource back from its handler: deleting "the old one" would delete what was just created.
 */
export function idempotentCreateError(logicalId: string, type: string, physicalId: string): CdkdError {
  return new CdkdError(
    'NAMED_REPLACEMENT_IDEMPOTENT_CREATE',
    `Cannot replace ${logicalId} (${type}): its handler returned ${physicalId}, the resource being replaced, so a create-first replacement would delete what it just created. Nothing was deleted.`,
    { hint: 'Pass --replace to delete the old resource first and then create the new one.' },
  );
}

function bothCustom(a: string, b: string): boolean {
  return isCustomResourceType(a) && isCustomResourceType(b);
}

function refuse(code: ErrorCode, message: string, hint: string): never {
  throw new CdkdError(code, message, { hint });
}
