import { createHash } from 'node:crypto';
import type { StackArtifact } from '../../../assembly/index.js';
import type { NestedTemplate, StackRequest } from '../../../engine/index.js';
import { canonicalJson } from '../../../plan/index.js';
import type { ParameterValue, PlanFlags, SavedStack } from './schema.js';

/** What a stack's plan is made from, apart from state: the saved stack without its ETag and operations. */
export type StackBasis = Omit<SavedStack, 'stateEtag' | 'operations'>;

/** The run's plan-shaping flags as the commands take them, in the file's shape. */
export interface PlanFlagInput {
  forceStatefulRecreation: boolean;
  replace?: boolean;
  fixForward?: boolean;
  recreateVia?: { ccApi: readonly string[]; sdkProvider: readonly string[] };
  routing?: { preferSdkRoute?: true | readonly string[]; pinCcApi?: readonly string[] };
  prefixUserSuppliedNames?: boolean;
}

export function planFlags(input: PlanFlagInput): PlanFlags {
  const prefer = input.routing?.preferSdkRoute;
  return {
    forceStatefulRecreation: input.forceStatefulRecreation,
    replace: input.replace === true,
    fixForward: input.fixForward === true,
    recreateViaCcApi: [...(input.recreateVia?.ccApi ?? [])].sort(),
    recreateViaSdkProvider: [...(input.recreateVia?.sdkProvider ?? [])].sort(),
    preferSdkRoute: prefer === true ? true : prefer ? [...prefer].sort() : null,
    pinCcApi: [...(input.routing?.pinCcApi ?? [])].sort(),
    prefixUserSuppliedNames: input.prefixUserSuppliedNames === true,
  };
}

/**
 * A stack's basis from what the engine is asked to deploy. The template hash covers the
 * nested templates and the asset hashes (a changed asset is a changed object key in the
 * template, and its manifest hash is hashed too); NoEcho parameter values are kept as hashes.
 */
export function stackBasis(stack: StackArtifact, request: StackRequest): StackBasis {
  const noEcho = noEchoParameters(stack.template);
  const parameters: Record<string, ParameterValue> = {};
  for (const [name, value] of Object.entries(request.parameters ?? {})) {
    const text = String(value);
    parameters[name] = noEcho.has(name) ? { sha256: sha256(text) } : { value: text };
  }
  const assets = stack.assetManifests.flatMap((manifest) => manifest.files.map((file) => file.hash)).sort();
  const hashed = {
    template: request.template,
    nested: nestedTemplates(request.nested),
    tags: request.tags ?? {},
    assets,
  };
  return {
    stackName: stack.stackName,
    displayName: stack.displayName,
    accountId: request.accountId,
    region: request.region,
    templateHash: `sha256:${sha256(canonicalJson(hashed))}`,
    parameters,
  };
}

function nestedTemplates(nested: ReadonlyMap<string, NestedTemplate> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    [...(nested ?? [])].map(([id, child]) => [
      id,
      { template: child.template, nested: nestedTemplates(child.nested) },
    ]),
  );
}

function noEchoParameters(template: Record<string, unknown>): Set<string> {
  const declared = (template.Parameters ?? {}) as Record<string, { NoEcho?: unknown }>;
  return new Set(
    Object.entries(declared)
      .filter(([, parameter]) => parameter?.NoEcho === true || parameter?.NoEcho === 'true')
      .map(([name]) => name),
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
