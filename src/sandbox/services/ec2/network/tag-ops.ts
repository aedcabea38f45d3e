import { listParam, structParams } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceEntry } from '../../../resources.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { NetworkView, tagsOf } from '../network.js';
import { defaultAclKey, defaultAclState } from './acl-view.js';
import { find, KINDS, returnTrue, update, type Kind } from './store.js';

type Tag = { Key: string; Value: string };

/** The kind an id names, by its prefix (`vpc-`, `subnet-`, `rtb-` ...), as EC2 tells them apart. */
function kindOf(id: string): Kind | undefined {
  const prefix = /^([a-z]+)-/.exec(id)?.[1];
  return prefix && Object.hasOwn(KINDS, prefix) ? KINDS[prefix as keyof typeof KINDS] : undefined;
}

/**
 * CreateTags / DeleteTags for the network resources kept as Cloud Control models: the tags live
 * in each model; a VPC's default network ACL, which has none, keeps them in its own state.
 */
export function changeTags(action: 'CreateTags' | 'DeleteTags') {
  return async (call: Ec2Call): Promise<SandboxResponse> => {
    const ids = listParam(call.params, 'ResourceId');
    if (ids.length === 0) throw ec2Errors.missingParameter('ResourceId');
    const tags = structParams(call.params, 'Tag').map((tag) => ({
      key: tag.get('Key') ?? '',
      value: tag.get('Value') ?? undefined,
    }));
    const retag = (current: Tag[]): Tag[] =>
      action === 'CreateTags'
        ? [
            ...current.filter((tag) => !tags.some((t) => t.key === tag.Key)),
            ...tags.map((tag) => ({ Key: tag.key, Value: tag.value ?? '' })),
          ]
        : current.filter(
            (tag) => !tags.some((t) => t.key === tag.Key && (t.value === undefined || t.value === tag.Value)),
          );
    const defaultAcls = new Set(
      new NetworkView(call.context.resources, call.request.accountId, call.request.region)
        .vpcs()
        .map((vpc) => vpc.defaultNetworkAclId),
    );
    const targets = ids.map((id): { defaultAcl: string } | { kind: Kind; entry: ResourceEntry } => {
      const kind = kindOf(id);
      if (!kind || kind === KINDS.rtbassoc) {
        throw ec2Errors.notFound('InvalidID', `The ID '${id}' is not valid`);
      }
      return defaultAcls.has(id) ? { defaultAcl: id } : { kind, entry: find(call, kind, id) };
    });
    for (const target of targets) {
      if ('defaultAcl' in target) {
        const state = defaultAclState(call, target.defaultAcl);
        await call.ec2State.defaultAcls.put(defaultAclKey(call, target.defaultAcl), {
          ...state,
          tags: retag(state.tags),
        });
        continue;
      }
      const next = retag(tagsOf(target.entry.model) as Tag[]);
      await update(call, target.kind.type, target.entry, { Tags: next.length > 0 ? next : undefined });
    }
    return returnTrue(action, call);
  };
}
