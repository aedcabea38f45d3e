import { CDK_METADATA_TYPE, NESTED_STACK_TYPE } from '../resource-types/index.js';

/**
 * Types no provider handles, and why (`ProviderRegistry.canHandle`). Checked in order.
 */
export type UnhandledReason =
  /** The engine skips it: CDK's analytics record, nothing to provision. */
  | 'engine-skipped'
  /** The engine deploys a nested stack itself (a child deploy), not through a provider. */
  | 'nested-stack'
  /** Not in the resource schema index (a typo, or a type newer than the bundled spec). */
  | 'unknown-type'
  /** The schema names no primary identifier, so Cloud Control cannot address it. */
  | 'not-addressable';

/** Types the engine skips without a provider or a state record. */
export const ENGINE_SKIPPED_TYPES: ReadonlySet<string> = new Set([CDK_METADATA_TYPE]);

export function isCustomResourceType(type: string): boolean {
  return type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource';
}

export interface TypeFacts {
  hasSdkProvider: boolean;
  /** In the resource schema index. */
  known: boolean;
  primaryIdentifier: readonly string[];
}

export function unhandledReason(type: string, facts: TypeFacts): UnhandledReason | undefined {
  if (ENGINE_SKIPPED_TYPES.has(type)) return 'engine-skipped';
  if (type === NESTED_STACK_TYPE) return 'nested-stack';
  if (facts.hasSdkProvider) return undefined;
  if (!facts.known) return 'unknown-type';
  if (facts.primaryIdentifier.length === 0) return 'not-addressable';
  return undefined;
}
