import { UNKNOWN_ACCOUNT, UNKNOWN_REGION, type NestedStack, type StackArtifact } from '../assembly/index.js';
import { rewriteAssetReferences } from '../assets/index.js';
import type { NestedTemplate, StackRequest } from '../engine/stack-request.js';
import { CdkdError } from '../errors.js';

export interface StackTarget {
  accountId: string;
  region: string;
}

/** Where a stack deploys: its own environment, or the caller's for an environment-agnostic stack. */
export function stackTarget(stack: StackArtifact, caller: StackTarget): StackTarget {
  const account =
    stack.environment.account === UNKNOWN_ACCOUNT ? caller.accountId : stack.environment.account;
  if (account !== caller.accountId) {
    throw new CdkdError(
      'ACCOUNT_MISMATCH',
      `Stack ${stack.displayName} is for account ${account}, but the credentials in use are for ${caller.accountId}.`,
      { hint: 'Use credentials (or --profile) for that account, or deploy the stack environment-agnostic.' },
    );
  }
  const region = stack.environment.region === UNKNOWN_REGION ? caller.region : stack.environment.region;
  return { accountId: account, region };
}

/**
 * The engine's view of a synthesized stack: template and nested templates with
 * their asset bucket references pointed at cdkd's asset bucket.
 */
export function stackRequest(
  stack: StackArtifact,
  nested: readonly NestedStack[],
  target: StackTarget,
  assetBucket: string,
  parameters: Record<string, string>,
): StackRequest {
  const destinations = stack.assetManifests.flatMap((manifest) =>
    manifest.files.flatMap((file) => file.destinations),
  );
  const rewrite = (template: Record<string, unknown>) =>
    rewriteAssetReferences(template, destinations, assetBucket).template;
  const nestedTemplates = (children: readonly NestedStack[]): ReadonlyMap<string, NestedTemplate> =>
    new Map(
      children.map((child) => [
        child.logicalId,
        { template: rewrite(child.template), nested: nestedTemplates(child.nested) },
      ]),
    );
  return {
    stateName: stack.stackName,
    stackName: stack.stackName,
    region: target.region,
    accountId: target.accountId,
    template: rewrite(stack.template),
    parameters: { ...stack.parameters, ...parameters },
    tags: stack.tags,
    nested: nestedTemplates(nested),
  };
}

/**
 * `--parameters KEY=VALUE` applies to every selected stack; `STACK:KEY=VALUE`
 * to that stack only, as the CDK CLI reads them.
 */
export function parametersFor(stackName: string, raw: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const entry of raw) {
    const equals = entry.indexOf('=');
    if (equals <= 0) {
      throw new CdkdError(
        'PARAMETER_SYNTAX',
        `--parameters ${entry}: expected KEY=VALUE or STACK:KEY=VALUE.`,
        {
          hint: 'For example: --parameters BucketName=my-bucket or --parameters MyStack:BucketName=my-bucket',
        },
      );
    }
    const key = entry.slice(0, equals);
    const value = entry.slice(equals + 1);
    const colon = key.indexOf(':');
    if (colon < 0) values[key] = value;
    else if (key.slice(0, colon) === stackName) values[key.slice(colon + 1)] = value;
  }
  return values;
}
