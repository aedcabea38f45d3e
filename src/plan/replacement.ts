import { nestedPathChanged } from './property-diff.js';
import { propertyVerdict, type RegistryAnswer, type VerdictSource } from './registry-schema.js';
import type { PlanOptions, ReplacementCause } from './types.js';

export interface ReplacementInput {
  type: string;
  previousType: string;
  changedProperties: readonly string[];
  recordedProperties: Record<string, unknown>;
  desiredProperties: Record<string, unknown>;
  providerCanUpdate: PlanOptions['providerCanUpdate'];
  /** What the CloudFormation registry said about the type; absent when it was not asked. */
  registry?: RegistryAnswer;
  /** Create-only properties the route leaves unsent (DesiredResource.unsent). */
  unsent?: readonly string[];
}

export interface ReplacementDecision {
  replace: boolean;
  causes: ReplacementCause[];
  notes: string[];
}

/**
 * Spec 004 "Which strategy a changed resource gets": replace when the Type changes, when an
 * immutable property changed (top-level or nested; the verdict comes from cdkd's own rule, the
 * registry schema or the bundled index, see propertyVerdict), or when the provider has no
 * update for the change; otherwise update in place. A `'maybe'` property and a type no schema
 * knows are planned in place (spec 002: without a schema verdict the change is classified in
 * place), with a note.
 */
export function decideReplacement(input: ReplacementInput): ReplacementDecision {
  const { type, previousType, changedProperties } = input;
  if (type !== previousType) {
    return { replace: true, causes: [{ kind: 'type-change', from: previousType, to: type }], notes: [] };
  }
  const causes: ReplacementCause[] = [];
  const unsent = new Set(input.unsent ?? []);
  const notes = changedProperties
    .filter((property) => unsent.has(property))
    .map(
      (property) => `${property} is create-only and left unsent (--prefer-sdk-route): recorded, not applied`,
    );
  const sent = changedProperties.filter((property) => !unsent.has(property));
  let unknownType = false;
  for (const property of sent) {
    const { verdict, nestedPaths, source } = propertyVerdict(type, property, input.registry);
    unknownType ||= source === 'none';
    if (verdict === 'yes') {
      causes.push({ kind: 'property', property, source });
      continue;
    }
    const path = nestedPaths.find((p) =>
      nestedPathChanged(input.recordedProperties[property], input.desiredProperties[property], p),
    );
    if (path !== undefined) {
      causes.push({ kind: 'nested-property', property, path, source });
    } else if (verdict === 'maybe') {
      notes.push(`${property} may require replacement depending on the change; planned in place`);
    }
  }
  if (unknownType) notes.push(unknownTypeNote(type, input.registry));
  if (causes.length === 0 && sent.length > 0 && !input.providerCanUpdate(type, sent)) {
    causes.push({ kind: 'no-provider-update', properties: sent });
  }
  return { replace: causes.length > 0, causes, notes };
}

function unknownTypeNote(type: string, registry: RegistryAnswer | undefined): string {
  return registry?.kind === 'type-not-found'
    ? `neither the CloudFormation registry nor the bundled schema index knows ${type}: changes are planned in place`
    : `no bundled schema for ${type}: changes are planned in place`;
}

const SOURCE_NAMES: Record<VerdictSource, string> = {
  cdkd: 'cdkd rule',
  registry: 'registry schema',
  bundled: 'schema',
  none: 'schema',
};

/** The reason text for one replacement cause. */
export function describeCause(cause: ReplacementCause): string {
  switch (cause.kind) {
    case 'property':
      return `${cause.property} requires replacement (${SOURCE_NAMES[cause.source ?? 'bundled']})`;
    case 'nested-property':
      return `${cause.property}.${cause.path} requires replacement (${SOURCE_NAMES[cause.source ?? 'bundled']})`;
    case 'type-change':
      return `Type changed from ${cause.from} to ${cause.to}`;
    case 'no-provider-update':
      return `the provider cannot update ${cause.properties.join(', ')} in place`;
  }
}
