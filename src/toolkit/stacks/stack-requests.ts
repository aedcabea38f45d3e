import {
  UNKNOWN_ACCOUNT,
  UNKNOWN_REGION,
  selectStacks,
  type CloudAssembly,
  type NestedStack,
  type StackArtifact,
} from '../../assembly/index.js';
import { rewriteAssetReferences } from '../../assets/rewrite-references.js';
import type { NestedTemplate, StackRequest } from '../../engine/index.js';
import { stackQualifier } from '../bootstrap/role-names.js';
import type { Session } from '../session/session.js';
import { withStackTags } from './stack-tags.js';

export interface StackTarget {
  accountId: string;
  region: string;
  /** The bootstrap qualifier of the deploy role a stack in another account is reached through. */
  qualifier?: string;
}

/** Where a stack deploys: its own environment, or the caller's for an environment-agnostic stack. */
export function stackEnvironment(stack: StackArtifact, caller: StackTarget): StackTarget {
  const account =
    stack.environment.account === UNKNOWN_ACCOUNT ? caller.accountId : stack.environment.account;
  const region = stack.environment.region === UNKNOWN_REGION ? caller.region : stack.environment.region;
  return { accountId: account, region };
}

/**
 * {@link stackEnvironment} with the qualifier of the deploy role a stack in another account is
 * reached through (the one its synthesizer names).
 */
export function stackTarget(stack: StackArtifact, caller: StackTarget): StackTarget {
  const target = stackEnvironment(stack, caller);
  if (target.accountId === caller.accountId) return target;
  return { ...target, qualifier: stackQualifier(stack.assumeRoleArn) };
}

/**
 * The session of each target's account, by account: the caller's own, or one acting through
 * that account's deploy role, each assumed now, so an account whose role refuses stops the
 * command before anything is read or changed there.
 */
export async function accountSessions(
  session: Session,
  targets: Iterable<StackTarget>,
): Promise<ReadonlyMap<string, Session>> {
  const sessions = new Map<string, Session>();
  for (const target of targets) {
    if (!sessions.has(target.accountId)) sessions.set(target.accountId, await session.forAccount(target));
  }
  return sessions;
}

/**
 * The one stack `pattern` names in the app (a command acting on a single stack), its
 * {@link stackTarget}, and the session of its account (the caller's, or through the deploy role).
 */
export async function singleStackTarget(
  session: Session,
  assembly: CloudAssembly,
  pattern: string,
): Promise<{ stack: StackArtifact; target: StackTarget; session: Session }> {
  const [stack] = selectStacks(assembly, {
    patterns: [pattern],
    all: false,
    defaultSelection: 'only-single',
    extend: 'none',
  });
  if (!stack) throw new Error(`no stack selected for ${pattern}`);
  const caller = { accountId: await session.accountId(), region: await session.region() };
  const target = stackTarget(stack, caller);
  return { stack, target, session: await session.forAccount(target) };
}

/**
 * The engine's view of a synthesized stack: template and nested templates with
 * their asset bucket references pointed at cdkd's asset bucket, and the parameter
 * values it deploys with (stackParameters: the assembly's and --parameters).
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
    withStackTags(rewriteAssetReferences(template, destinations, assetBucket).template, stack.tags);
  const nestedTemplates = (children: readonly NestedStack[]): ReadonlyMap<string, NestedTemplate> =>
    new Map(
      children.map((child) => [
        child.logicalId,
        {
          template: rewrite(child.template),
          nested: nestedTemplates(child.nested),
          templateFile: child.templateFile,
        },
      ]),
    );
  // The stack's own template is deployed by cdkd, not read from the bucket.
  const assets = stack.assetManifests.flatMap((manifest) =>
    manifest.files
      .filter((file) => file.absoluteSourcePath !== stack.templateFile)
      .flatMap((file) => file.destinations.map((d) => ({ bucket: assetBucket, key: d.objectKey }))),
  );
  return {
    stateName: stack.stackName,
    stackName: stack.stackName,
    region: target.region,
    accountId: target.accountId,
    template: rewrite(stack.template),
    parameters,
    tags: stack.tags,
    ...(stack.terminationProtection ? { terminationProtection: true } : {}),
    nested: nestedTemplates(nested),
    ...(assets.length > 0 && { assets }),
  };
}
