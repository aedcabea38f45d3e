import type { IAMClient } from '@aws-sdk/client-iam';
import { CdkdError } from '../../errors.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import {
  changed,
  documentText,
  iamClient,
  isNoSuchEntity,
  nameFor,
  parseDocument,
  stringList,
} from './common.js';
import { setDiff } from './diff.js';
import { INLINE_POLICY_TARGETS as TARGETS, type PrincipalKind } from '../../resource-types/index.js';
import { principalApi } from './principal-api.js';
import { ignoreGone } from './principal-policies.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::IAM::Policy';
const COVERED = ['Groups', 'PolicyDocument', 'PolicyName', 'Roles', 'Users'];

/**
 * AWS::IAM::Policy: one inline policy put on each of its roles, users and groups. The
 * physical id is a generated id (IAM has no object for it); every property updates in
 * place, moving the policy between principals included.
 */
export class PolicyProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    requireTarget(request.logicalId, p);
    const client = await iamClient(context);
    const name = String(p.PolicyName);
    const document = documentText(p.PolicyDocument);
    const written: Written[] = [];
    try {
      for (const { kind, property } of TARGETS) {
        const api = principalApi(client, kind, context.signal);
        for (const principal of stringList(p[property])) {
          await api.putPolicy(principal, name, document);
          written.push({ kind, principal });
        }
      }
    } catch (error) {
      // No id is recorded for a failed create, so it takes back its own writes (spec: it cleans up).
      throw namingLeftovers(error, name, await removeWrites(client, name, written));
    }
    const id = nameFor(TYPE, undefined, context, request);
    // Put{Role,User,Group}Policy answer nothing to observe.
    return { physicalId: id, attributes: { Id: id }, creationIdentity: { Id: id, PolicyName: name } };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = request.previousProperties;
    const after = request.properties;
    requireTarget(request.logicalId, after);
    const client = await iamClient(context);
    const oldName = String(before.PolicyName);
    const newName = String(after.PolicyName);
    const rewriteAll = oldName !== newName || changed(before, after, 'PolicyDocument');
    const document = documentText(after.PolicyDocument);
    for (const { kind, property } of TARGETS) {
      const api = principalApi(client, kind, context.signal);
      const targets = setDiff(stringList(before[property]), stringList(after[property]));
      const putOn = rewriteAll ? stringList(after[property]) : targets.add;
      for (const principal of putOn) await api.putPolicy(principal, newName, document);
      const removeFrom = oldName !== newName ? stringList(before[property]) : targets.remove;
      for (const principal of removeFrom) await ignoreGone(api.deletePolicy(principal, oldName));
    }
    return { physicalId: request.physicalId, attributes: { Id: request.physicalId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await iamClient(context);
    const name = String(request.properties.PolicyName);
    for (const { kind, property } of TARGETS) {
      const api = principalApi(client, kind, context.signal);
      for (const principal of stringList(request.properties[property])) {
        await ignoreGone(api.deletePolicy(principal, name));
      }
    }
  }

  /** The policy as found on its recorded principals; undefined when it is on none of them. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await iamClient(context);
    const name = String(request.properties.PolicyName);
    const properties: JsonObject = { PolicyName: name };
    for (const { kind, property } of TARGETS) {
      const api = principalApi(client, kind, context.signal);
      const found: string[] = [];
      for (const principal of stringList(request.properties[property])) {
        try {
          const document = await api.getPolicy(principal, name);
          properties.PolicyDocument ??= parseDocument(document);
          found.push(principal);
        } catch (error) {
          if (!isNoSuchEntity(error)) throw error;
        }
      }
      if (found.length > 0) properties[property] = found;
    }
    if (properties.PolicyDocument === undefined) return undefined;
    return { properties, attributes: { Id: request.physicalId } };
  }
}

/** CloudFormation's own check: the policy must go somewhere. */
function requireTarget(logicalId: string, properties: JsonObject): void {
  if (TARGETS.some(({ property }) => stringList(properties[property]).length > 0)) return;
  throw new CdkdError(
    'IAM_POLICY_NO_TARGET',
    `${logicalId} (AWS::IAM::Policy): at least one of [Groups, Roles, Users] must be non-empty.`,
    { hint: 'Attach the policy to a role, user or group in the template, or remove the resource.' },
  );
}

/** A principal a create put the inline policy on. */
interface Written {
  kind: PrincipalKind;
  principal: string;
}

/** Best effort: deletes the inline policy from each principal written; returns those still holding it. */
async function removeWrites(client: IAMClient, name: string, written: readonly Written[]): Promise<string[]> {
  const left: string[] = [];
  for (const { kind, principal } of written) {
    try {
      // Without the create's abort signal: a cancelled create still takes back what it wrote.
      await ignoreGone(principalApi(client, kind).deletePolicy(principal, name));
    } catch {
      left.push(`${kind.toLowerCase()} ${principal}`);
    }
  }
  return left;
}

/**
 * The create's failure, its message also naming each principal the cleanup left holding the
 * policy. The error itself is kept, so retries classify it by its AWS code as before.
 */
function namingLeftovers(failure: unknown, name: string, left: readonly string[]): unknown {
  if (left.length === 0) return failure;
  const held = left.map((principal) => `${principal} still holds inline policy ${name}`).join('; ');
  const note = `${held} (the failed create could not remove it; delete it by hand)`;
  if (!(failure instanceof Error)) {
    return new CdkdError('IAM_POLICY_CLEANUP_FAILED', `${String(failure)}; ${note}`, { cause: failure });
  }
  failure.message = `${failure.message}; ${note}`;
  return failure;
}
