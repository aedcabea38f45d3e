import { listParam, structParams } from '../../../protocols/ec2-query.js';
import type { SandboxResponse } from '../../../request.js';
import type { Ec2Call } from '../call.js';
import { ec2Errors } from '../ec2-errors.js';
import { find, KINDS, returnTrue, update, type Kind } from './store.js';

/** The kind an id names, by its prefix (`vpc-`, `subnet-`, `rtb-` ...), as EC2 tells them apart. */
function kindOf(id: string): Kind | undefined {
  const prefix = /^([a-z]+)-/.exec(id)?.[1];
  return prefix && Object.hasOwn(KINDS, prefix) ? KINDS[prefix as keyof typeof KINDS] : undefined;
}

/** CreateTags / DeleteTags for the network resources kept as Cloud Control models: the tags live in each model. */
export function changeTags(action: 'CreateTags' | 'DeleteTags') {
  return async (call: Ec2Call): Promise<SandboxResponse> => {
    const ids = listParam(call.params, 'ResourceId');
    if (ids.length === 0) throw ec2Errors.missingParameter('ResourceId');
    const tags = structParams(call.params, 'Tag').map((tag) => ({
      key: tag.get('Key') ?? '',
      value: tag.get('Value') ?? undefined,
    }));
    const targets = ids.map((id) => {
      const kind = kindOf(id);
      if (!kind || kind === KINDS.rtbassoc) {
        throw ec2Errors.notFound('InvalidID', `The ID '${id}' is not valid`);
      }
      return { kind, entry: find(call, kind, id) };
    });
    for (const { kind, entry } of targets) {
      const current = Array.isArray(entry.model.Tags)
        ? (entry.model.Tags as Array<{ Key: string; Value: string }>)
        : [];
      const next =
        action === 'CreateTags'
          ? [
              ...current.filter((tag) => !tags.some((t) => t.key === tag.Key)),
              ...tags.map((tag) => ({ Key: tag.key, Value: tag.value ?? '' })),
            ]
          : current.filter(
              (tag) =>
                !tags.some((t) => t.key === tag.Key && (t.value === undefined || t.value === tag.Value)),
            );
      await update(call, kind.type, entry, { Tags: next.length > 0 ? next : undefined });
    }
    return returnTrue(action, call);
  };
}
