import { HandlerError, type ResourceHandler, type ResourceModel } from '../resources.js';
import type { Storage } from '../storage/storage.js';
import { generatedName } from './cloudcontrol/model-builder.js';
import { asHandler, checkCreate, checkUpdate, jsonText, mustExist } from './resource-model.js';

/**
 * A policy resource that sets the access policy of the resources it lists (AWS::SQS::QueuePolicy
 * on queues, AWS::SNS::TopicPolicy on topics). The service keeps each target's policy; this
 * keeps which targets a policy resource set, so an update or delete undoes it on the ones it drops.
 */
export interface PolicyTargets {
  type: string;
  /** The property listing the targets (`Queues`, `Topics`). */
  listProperty: string;
  /** The storage namespace of the policy resources. */
  namespace: string;
  /** What a target is called in the message for one that does not exist (`Queue`, `Topic`). */
  noun: string;
  exists(target: string, region: string, accountId: string): boolean;
  /** Sets the target's policy to `policy`, or undoes the policy resource's when undefined. */
  apply(target: string, policy: string | undefined, region: string, accountId: string): Promise<void>;
}

interface Attachment {
  id: string;
  region: string;
  accountId: string;
  policyDocument: unknown;
  targets: string[];
}

export interface PolicyAttachments {
  handler: ResourceHandler;
  /** The policy resources held, for the module's inventory. */
  inventory(): Array<{ id: string; region: string; targets: string[] }>;
}

export async function policyAttachments(storage: Storage, spec: PolicyTargets): Promise<PolicyAttachments> {
  const held = new Map<string, Attachment>();
  for (const { doc } of await storage.listDocuments<Attachment>(spec.namespace)) held.set(doc.id, doc);
  const save = (attachment: Attachment) => {
    held.set(attachment.id, attachment);
    return storage.putDocument(spec.namespace, attachment.id, attachment);
  };
  const model = (attachment: Attachment): ResourceModel => ({
    Id: attachment.id,
    PolicyDocument: attachment.policyDocument,
    [spec.listProperty]: attachment.targets,
  });
  const find = (id: string, region: string, accountId: string): Attachment | undefined => {
    const attachment = held.get(id);
    return attachment?.region === region && attachment.accountId === accountId ? attachment : undefined;
  };
  const found = (id: string, region: string, accountId: string): Attachment =>
    mustExist(spec.type, id, find(id, region, accountId));
  const targetsOf = (desired: ResourceModel, region: string, accountId: string): string[] => {
    const targets = desired[spec.listProperty];
    if (!Array.isArray(targets) || targets.some((target) => typeof target !== 'string')) {
      throw new HandlerError('InvalidRequest', `${spec.listProperty} must be a list of strings.`);
    }
    const missing = (targets as string[]).find((target) => !spec.exists(target, region, accountId));
    if (missing !== undefined)
      throw new HandlerError('InvalidRequest', `${spec.noun} ${missing} does not exist.`);
    return targets as string[];
  };
  const attach = async (attachment: Attachment, dropped: string[]) => {
    const policy = jsonText(attachment.policyDocument);
    await asHandler(async () => {
      for (const target of attachment.targets) {
        await spec.apply(target, policy, attachment.region, attachment.accountId);
      }
    });
    for (const target of dropped) await detach(target, attachment.region, attachment.accountId);
  };
  const detach = async (target: string, region: string, accountId: string) => {
    if (spec.exists(target, region, accountId)) await spec.apply(target, undefined, region, accountId);
  };
  const handler: ResourceHandler = {
    async create(desired, region, accountId) {
      checkCreate(spec.type, desired);
      const targets = targetsOf(desired, region, accountId);
      const attachment = {
        id: generatedName(spec.type),
        region,
        accountId,
        policyDocument: desired.PolicyDocument,
        targets,
      };
      await attach(attachment, []);
      await save(attachment);
      return { identifier: attachment.id, model: model(attachment) };
    },
    read(identifier, region, accountId) {
      const attachment = find(identifier, region, accountId);
      return attachment && model(attachment);
    },
    async update(identifier, desired, region, accountId) {
      const attachment = found(identifier, region, accountId);
      checkUpdate(spec.type, model(attachment), desired);
      const targets = targetsOf(desired, region, accountId);
      const next = { ...attachment, policyDocument: desired.PolicyDocument, targets };
      await attach(
        next,
        attachment.targets.filter((target) => !targets.includes(target)),
      );
      await save(next);
      return model(next);
    },
    async delete(identifier, region, accountId) {
      const attachment = found(identifier, region, accountId);
      for (const target of attachment.targets) await detach(target, region, accountId);
      held.delete(identifier);
      await storage.deleteDocument(spec.namespace, identifier);
    },
    list(region, accountId) {
      return [...held.values()]
        .filter((attachment) => attachment.region === region && attachment.accountId === accountId)
        .map((attachment) => ({ identifier: attachment.id, model: model(attachment) }));
    },
  };
  return {
    handler,
    inventory: () =>
      [...held.values()].map(({ id, region, targets }) => ({ id, region, targets: [...targets] })),
  };
}
