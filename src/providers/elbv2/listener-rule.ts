import {
  CreateRuleCommand,
  DeleteRuleCommand,
  DescribeRulesCommand,
  ModifyRuleCommand,
  SetRulePrioritiesCommand,
  type ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { changedKeys } from '../property-values.js';
import { createTags, elbv2, tagsOf, updateElbv2Tags, notFound } from './client.js';

export const LISTENER_RULE_TYPE = 'AWS::ElasticLoadBalancingV2::ListenerRule';

/**
 * AWS::ElasticLoadBalancingV2::ListenerRule through CreateRule (tags in the same call),
 * ModifyRule (conditions, actions), SetRulePriorities (priority) and DeleteRule. Physical id
 * and Ref: the rule's ARN.
 */
export class ListenerRuleProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: LISTENER_RULE_TYPE,
    covered: ['ListenerArn', 'Priority', 'Conditions', 'Actions', 'Tags'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await elbv2(context);
    const { properties } = request;
    const { Rules } = await client.send(
      new CreateRuleCommand({
        ListenerArn: String(properties.ListenerArn),
        Priority: Number(properties.Priority),
        Conditions: properties.Conditions as never,
        Actions: properties.Actions as never,
        Tags: createTags(properties, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const arn = Rules![0]!.RuleArn!;
    return {
      physicalId: arn,
      attributes: { RuleArn: arn, IsDefault: false },
      creationIdentity: { RuleArn: arn },
    };
  }

  /** The listener's rule at the create's priority that carries its token tag. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const client = await elbv2(context);
    const rules = await rulesOf(client, { ListenerArn: String(request.properties.ListenerArn) }, context);
    const atPriority = rules.find((rule) => rule.Priority === String(request.properties.Priority));
    if (!atPriority) return 'none';
    const { madeBy } = await tagsOf(client, atPriority.RuleArn!, context, token);
    return madeBy ? { physicalId: atPriority.RuleArn! } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await elbv2(context);
    const arn = request.physicalId;
    const signal = { abortSignal: context.signal };
    const changed = changedKeys(request.previousProperties, request.properties, [
      'Priority',
      'Conditions',
      'Actions',
    ]);
    if (changed.includes('Priority')) {
      await client.send(
        new SetRulePrioritiesCommand({
          RulePriorities: [{ RuleArn: arn, Priority: Number(request.properties.Priority) }],
        }),
        signal,
      );
    }
    if (changed.includes('Conditions') || changed.includes('Actions')) {
      await client.send(
        new ModifyRuleCommand({
          RuleArn: arn,
          Conditions: request.properties.Conditions as never,
          Actions: request.properties.Actions as never,
        }),
        signal,
      );
    }
    await updateElbv2Tags(client, arn, request.previousProperties.Tags, request.properties.Tags, context);
    return { physicalId: arn, attributes: { RuleArn: arn, IsDefault: false } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await elbv2(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteRuleCommand({ RuleArn: request.physicalId }), { abortSignal: context.signal }),
      errorCodeIn('RuleNotFound', 'RuleNotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await elbv2(context);
    const [live] = await rulesOf(client, { RuleArns: [request.physicalId] }, context);
    if (!live) return undefined;
    const { tags } = await tagsOf(client, request.physicalId, context);
    const properties: JsonObject = {
      Priority: Number(live.Priority),
      Conditions: live.Conditions,
      Actions: live.Actions,
      ...(tags && { Tags: tags }),
    };
    return {
      properties,
      attributes: { RuleArn: request.physicalId, IsDefault: live.IsDefault ?? false },
      creationIdentity: { RuleArn: request.physicalId },
    };
  }
}

async function rulesOf(
  client: ElasticLoadBalancingV2Client,
  by: { ListenerArn: string } | { RuleArns: string[] },
  context: ProviderContext,
) {
  try {
    return (await client.send(new DescribeRulesCommand(by), { abortSignal: context.signal })).Rules ?? [];
  } catch (error) {
    if (notFound(error, 'RuleNotFound') || notFound(error, 'ListenerNotFound')) return [];
    throw error;
  }
}
