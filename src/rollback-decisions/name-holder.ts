import { nameProperty, readPath, type NameProperty } from '../resource-types/index.js';

/** What the create-first reversal knows when the re-create of the old resource collided on a name. */
export interface NameHolderInput {
  /** The old resource's type (the one being re-created). */
  type: string;
  /** The new resource's type; differs from `type` after a Type change. */
  newType: string;
  /**
   * The name the re-create sent: explicit from the old properties, or generated; for the
   * types that rewrite names, the name after prefix and rewrite. Undefined when none can be derived.
   */
  name: string | undefined;
  /** The template named none: cdkd generated the name. */
  generated: boolean;
  /** cdkd knows this type's generated name exactly (a Cloud Control re-create, or a checked SDK provider). */
  generatedNameKnown: boolean;
  /** The old properties, for the parent the re-create names (event bus, Glue database, hosted zone). */
  oldProperties?: Record<string, unknown>;
  /** The new resource: its state record and its last read-back properties. */
  newResource: {
    physicalId: string;
    properties: Record<string, unknown>;
    observedProperties?: Record<string, unknown>;
  };
}

export type NameHolding = { holds: true } | { holds: false; reason: string };

/**
 * Whether the new resource provably holds the name the re-create collided on (spec 000,
 * "On the create-first order"). Only then may the rollback delete it first; anything it
 * cannot show is a refusal, since the holder may be a resource outside the stack.
 */
export function newResourceHoldsName(input: NameHolderInput): NameHolding {
  const oldRule = nameProperty(input.type);
  const newRule = nameProperty(input.newType);
  if (!oldRule || !newRule) return refuse(`cdkd knows no name property for ${unknownType(input)}`);
  if (input.type !== input.newType && oldRule.namespace !== newRule.namespace) {
    return refuse(`cdkd does not know ${input.type} and ${input.newType} to share names`);
  }
  const name = input.name;
  if (name === undefined) return refuse('the re-create asked for no name cdkd can derive');
  if (name === '' || isRedacted(name)) return refuse('the name is redacted or empty');

  const recorded = readPath(input.newResource.properties, newRule.path);
  const observed = readPath(input.newResource.observedProperties, newRule.path);
  // A read-back naming exactly the name being freed explains the difference (the stack's
  // name-prefix setting records the template's name but sends the prefixed one).
  if (
    typeof recorded === 'string' &&
    typeof observed === 'string' &&
    !sameName(newRule, recorded, observed) &&
    !sameName(newRule, observed, name)
  ) {
    return refuse("the new resource's state record and its last read-back name it differently");
  }

  const sentParent = parentValue(oldRule, input.oldProperties);
  const recordParent = parentValue(newRule, input.newResource.properties);
  const fromId = newRule.fromId?.(input.newResource.physicalId) ?? { name: input.newResource.physicalId };
  const idParent = fromId.parent === undefined ? recordParent : normalizeParent(newRule, fromId.parent);
  const idNamesIt =
    fromId.name !== undefined &&
    sameName(newRule, fromId.name, name) &&
    sameParent(newRule, sentParent, idParent);

  // A generated name, or one the provider rewrites, shows only in the physical id.
  if (input.generated && !input.generatedNameKnown) {
    return refuse(`cdkd does not know the name ${input.type} generates exactly`);
  }
  if (input.generated || oldRule.rewritesName || newRule.rewritesName) {
    return idNamesIt ? { holds: true } : refuse(`the new resource's physical id does not name ${name}`);
  }
  const recordNamesIt =
    typeof recorded === 'string' &&
    sameName(newRule, recorded, name) &&
    sameParent(newRule, sentParent, recordParent);
  if (recordNamesIt || idNamesIt) return { holds: true };
  return refuse(`the new resource's state record does not hold ${name}`);
}

/** The refusal when the name is held by something cdkd cannot show to be the new resource (spec 001). */
export function nameCollisionMessage(logicalId: string, name: string): string {
  return [
    `Cannot re-create ${logicalId}: the name ${name} is still taken, and cdkd cannot show that the new resource is what holds it. Nothing was deleted, and the journal is kept. Then do one of these:`,
    '• Remove or rename whatever holds the name, and run cdkd rollback again.',
    '• If the new resource itself holds the name, delete it by hand and run cdkd rollback again.',
    `• Pass --orphan ${logicalId} to leave that resource alone.`,
  ].join('\n');
}

/**
 * The refusal when the new copy provably holds the name but may not be deleted to free it: its
 * old properties name a resource the same deploy replaced or deleted (spec 000).
 */
export function nameHeldByNewCopyMessage(logicalId: string, name: string): string {
  return [
    `Cannot re-create ${logicalId}: the name ${name} is held by the new resource, and cdkd does not delete it to free the name, since the old properties name a resource the same deploy replaced or deleted. Nothing was deleted, and the journal is kept. Then do one of these:`,
    '• Delete the new resource by hand, and run cdkd rollback again.',
    `• Pass --orphan ${logicalId} to leave that resource alone.`,
  ].join('\n');
}

/** The refusal when the name is held by a new resource UpdateReplacePolicy: Retain pins (spec 000). */
export function retainedHolderMessage(logicalId: string, name: string): string {
  return `Cannot re-create ${logicalId}: the name ${name} is held by the new resource, which declares UpdateReplacePolicy: Retain, and cdkd will not delete a retained resource to free the name. The journal is kept. Delete the new resource yourself, or remove UpdateReplacePolicy: Retain, then run cdkd rollback again.`;
}

function refuse(reason: string): NameHolding {
  return { holds: false, reason };
}

function unknownType(input: NameHolderInput): string {
  return nameProperty(input.type) ? input.newType : input.type;
}

/** State masks NoEcho-sourced values as `***`; no service accepts `*` in a name. */
function isRedacted(name: string): boolean {
  return name.includes('***');
}

function sameName(rule: NameProperty, a: string, b: string): boolean {
  return rule.fold ? rule.fold(a) === rule.fold(b) : a === b;
}

function parentValue(
  rule: NameProperty,
  properties: Record<string, unknown> | undefined,
): string | undefined {
  if (!rule.parent) return undefined;
  const value = properties?.[rule.parent.property];
  if (typeof value === 'string' && value !== '') return normalizeParent(rule, value);
  return rule.parent.absent;
}

function normalizeParent(rule: NameProperty, value: string): string {
  return rule.parent?.normalize ? rule.parent.normalize(value) : value;
}

/** A name unique under a parent matches only under the same, known, parent. */
function sameParent(rule: NameProperty, sent: string | undefined, holder: string | undefined): boolean {
  if (!rule.parent) return true;
  return sent !== undefined && sent === holder;
}
