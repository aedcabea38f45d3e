import { nestedPathChanged } from './property-diff.js';
import { isKnownType, nestedReplacementPathsOf, replacementOf } from './resource-schemas.js';
import type { PlanOptions, ReplacementCause } from './types.js';

export interface ReplacementInput {
  type: string;
  previousType: string;
  changedProperties: readonly string[];
  recordedProperties: Record<string, unknown>;
  desiredProperties: Record<string, unknown>;
  providerCanUpdate: PlanOptions['providerCanUpdate'];
}

export interface ReplacementDecision {
  replace: boolean;
  causes: ReplacementCause[];
  notes: string[];
}

/**
 * Spec 004 "Which strategy a changed resource gets": replace when the Type changes, when an
 * immutable property changed (schema `causesReplacement: 'yes'`, top-level or nested), or when
 * the provider has no update for the change; otherwise update in place. A `'maybe'` property
 * and a type without a bundled schema are planned in place (spec 002: without a schema verdict
 * the change is classified in place), with a note.
 */
export function decideReplacement(input: ReplacementInput): ReplacementDecision {
  const { type, previousType, changedProperties } = input;
  if (type !== previousType) {
    return { replace: true, causes: [{ kind: 'type-change', from: previousType, to: type }], notes: [] };
  }
  const causes: ReplacementCause[] = [];
  const notes: string[] = [];
  for (const property of changedProperties) {
    const verdict = replacementOf(type, property);
    if (verdict === 'yes') {
      causes.push({ kind: 'property', property });
      continue;
    }
    const path = nestedReplacementPathsOf(type, property).find((p) =>
      nestedPathChanged(input.recordedProperties[property], input.desiredProperties[property], p),
    );
    if (path !== undefined) {
      causes.push({ kind: 'nested-property', property, path });
    } else if (verdict === 'maybe') {
      notes.push(`${property} may require replacement depending on the change; planned in place`);
    }
  }
  if (changedProperties.length > 0 && !isKnownType(type)) {
    notes.push(`no bundled schema for ${type}: changes are planned in place`);
  }
  if (
    causes.length === 0 &&
    changedProperties.length > 0 &&
    !input.providerCanUpdate(type, changedProperties)
  ) {
    causes.push({ kind: 'no-provider-update', properties: [...changedProperties] });
  }
  return { replace: causes.length > 0, causes, notes };
}

/** The reason text for one replacement cause. */
export function describeCause(cause: ReplacementCause): string {
  switch (cause.kind) {
    case 'property':
      return `${cause.property} requires replacement (schema)`;
    case 'nested-property':
      return `${cause.property}.${cause.path} requires replacement (schema)`;
    case 'type-change':
      return `Type changed from ${cause.from} to ${cause.to}`;
    case 'no-provider-update':
      return `the provider cannot update ${cause.properties.join(', ')} in place`;
  }
}
