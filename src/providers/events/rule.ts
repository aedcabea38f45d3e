import {
  DeleteRuleCommand,
  DescribeRuleCommand,
  ListTargetsByRuleCommand,
  PutRuleCommand,
  PutTargetsCommand,
  RemoveTargetsCommand,
  type DescribeRuleCommandOutput,
  type EventBridgeClient,
  type RuleState,
} from '@aws-sdk/client-eventbridge';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { awsErrorCode } from '../../aws/error-class.js';

import { nameFromToken, tokenPhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
  NameLookup,
} from '../provider.js';
import { resourceMade } from '../resource-made.js';
import { eventsClient, observedTags, retag } from './common.js';
import { textTags } from '../tags.js';
import { targetChanges } from './targets.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const RULE = 'AWS::Events::Rule';

const COVERED = new Set([
  'Name',
  'EventBusName',
  'Description',
  'EventPattern',
  'ScheduleExpression',
  'State',
  'RoleArn',
  'Targets',
  'Tags',
]);

export const RULE_NAME_RULES = { maxLength: 64, extraCharacters: '-_.' };

/** Where a rule lives, from its ARN (the physical id): rules on the default bus have no bus segment. */
export function ruleLocation(arn: string): { bus: string; name: string } {
  const path = arn.slice(arn.indexOf(':rule/') + ':rule/'.length).split('/');
  return path.length > 1 ? { bus: path[0]!, name: path[1]! } : { bus: 'default', name: path[0]! };
}

/** What Ref returns: the rule name, or `bus|name` for a rule on a custom bus (the schema's composite ref). */
export function ruleRef(bus: string, name: string): string {
  return bus === 'default' ? name : `${bus}|${name}`;
}

/**
 * AWS::Events::Rule with its targets. Physical id: the rule ARN; Ref: see ruleRef. A rule
 * under a generated name whose targets then fail is reported made (ResourceMadeError).
 */
export class RuleProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: RULE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    // Seeded by the create's token, a generated name is the same on every attempt of the
    // create, so its retry puts the same rule again instead of making a second one.
    const name =
      props.Name !== undefined
        ? String(props.Name)
        : tokenPhysicalName(context.stackName, request, RULE_NAME_RULES);
    const bus = busOf(props);
    const client = await eventsClient(context);
    const tags = textTags(props.Tags);
    const { RuleArn } = await client.send(
      new PutRuleCommand({ ...ruleInput(name, bus, props), ...(tags.length > 0 ? { Tags: tags } : {}) }),
      { abortSignal: context.signal },
    );
    const creationIdentity = { Arn: RuleArn! };
    try {
      await this.applyTargets(client, name, bus, undefined, props.Targets, context);
    } catch (error) {
      // PutRule overwrites a rule already holding an explicit name; a generated one is this create's alone.
      if (props.Name === undefined) throw resourceMade({ physicalId: RuleArn!, creationIdentity }, error);
      throw error;
    }
    return {
      physicalId: RuleArn!,
      ref: ruleRef(bus, name),
      attributes: { Arn: RuleArn, RuleName: name },
      creationIdentity,
      observed: observedOf(RuleArn!),
    };
  }

  /** The rule a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.Name, request)) return 'unknown';
    const name = tokenPhysicalName(context.stackName, request, RULE_NAME_RULES);
    const arn = await ruleHolding(name, busOf(request.properties), context);
    return arn ? { physicalId: arn } : 'none';
  }

  /** PutRule overwrites the rule already holding an explicit name on its bus: look it up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    if (request.properties.Name === undefined) return undefined;
    const name = String(request.properties.Name);
    const holder = await ruleHolding(name, busOf(request.properties), context);
    return { name, ...(holder ? { holder } : {}) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { bus, name } = ruleLocation(request.physicalId);
    const client = await eventsClient(context);
    await client.send(new PutRuleCommand(ruleInput(name, bus, request.properties)), {
      abortSignal: context.signal,
    });
    await this.applyTargets(
      client,
      name,
      bus,
      request.previousProperties.Targets,
      request.properties.Targets,
      context,
    );
    await retag(client, request.physicalId, request.previousProperties, request.properties, context);
    return {
      physicalId: request.physicalId,
      ref: ruleRef(bus, name),
      attributes: { Arn: request.physicalId, RuleName: name },
      observed: observedOf(request.physicalId),
    };
  }

  /** Targets first (EventBridge refuses to delete a rule that has any), then the rule. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const { bus, name } = ruleLocation(request.physicalId);
    const client = await eventsClient(context);
    const signal = { abortSignal: context.signal };
    await deleteTreatingNotFoundAsGone(async () => {
      const targets = (
        await client.send(new ListTargetsByRuleCommand({ Rule: name, EventBusName: bus }), signal)
      ).Targets;
      if (targets && targets.length > 0) {
        await client.send(
          new RemoveTargetsCommand({ Rule: name, EventBusName: bus, Ids: targets.map((t) => t.Id!) }),
          signal,
        );
      }
      await client.send(new DeleteRuleCommand({ Name: name, EventBusName: bus }), signal);
    }, errorCodeIn('ResourceNotFoundException'));
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const { bus, name } = ruleLocation(request.physicalId);
    const client = await eventsClient(context);
    let rule: DescribeRuleCommandOutput;
    try {
      rule = await client.send(new DescribeRuleCommand({ Name: name, EventBusName: bus }));
    } catch (error) {
      if (awsErrorCode(error) === 'ResourceNotFoundException') return undefined;
      throw error;
    }
    const targets =
      (await client.send(new ListTargetsByRuleCommand({ Rule: name, EventBusName: bus }))).Targets ?? [];
    return {
      properties: {
        Name: rule.Name,
        EventBusName: rule.EventBusName,
        State: rule.State,
        ...(rule.EventPattern !== undefined
          ? { EventPattern: JSON.parse(rule.EventPattern) as unknown }
          : {}),
        ...(rule.ScheduleExpression !== undefined ? { ScheduleExpression: rule.ScheduleExpression } : {}),
        ...(rule.Description !== undefined ? { Description: rule.Description } : {}),
        ...(rule.RoleArn !== undefined ? { RoleArn: rule.RoleArn } : {}),
        ...(targets.length > 0 ? { Targets: targets } : {}),
        ...(await observedTags(client, rule.Arn!)),
      },
      attributes: { Arn: rule.Arn, RuleName: rule.Name },
      creationIdentity: { Arn: rule.Arn! },
    };
  }

  private async applyTargets(
    client: EventBridgeClient,
    name: string,
    bus: string,
    before: unknown,
    after: unknown,
    context: ProviderContext,
  ): Promise<void> {
    const { remove, put } = targetChanges(before, after);
    const signal = { abortSignal: context.signal };
    if (remove.length > 0) {
      await client.send(new RemoveTargetsCommand({ Rule: name, EventBusName: bus, Ids: remove }), signal);
    }
    if (put.length > 0) {
      const result = await client.send(
        new PutTargetsCommand({ Rule: name, EventBusName: bus, Targets: put }),
        signal,
      );
      const failed = result.FailedEntries?.[0];
      if (failed) {
        const error = new Error(`PutTargets refused target ${failed.TargetId}: ${failed.ErrorMessage}`);
        error.name = failed.ErrorCode ?? 'PutTargetsFailed';
        throw error;
      }
    }
  }
}

/** The ARN of the rule holding `name` on `bus`, or undefined when none does. */
async function ruleHolding(name: string, bus: string, context: ProviderContext): Promise<string | undefined> {
  const client = await eventsClient(context);
  try {
    return (await client.send(new DescribeRuleCommand({ Name: name, EventBusName: bus }))).Arn;
  } catch (error) {
    if (awsErrorCode(error) === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

function busOf(props: JsonObject): string {
  const value = props.EventBusName;
  if (value === undefined) return 'default';
  const text = String(value);
  const arn = /:event-bus\/(.+)$/.exec(text);
  return arn ? arn[1]! : text;
}

function ruleInput(name: string, bus: string, props: JsonObject) {
  const pattern = props.EventPattern;
  return {
    Name: name,
    EventBusName: bus,
    ...(pattern !== undefined
      ? { EventPattern: typeof pattern === 'string' ? pattern : JSON.stringify(pattern) }
      : {}),
    ...(props.ScheduleExpression !== undefined
      ? { ScheduleExpression: String(props.ScheduleExpression) }
      : {}),
    State: (props.State !== undefined ? String(props.State) : 'ENABLED') as RuleState,
    ...(props.Description !== undefined ? { Description: String(props.Description) } : {}),
    ...(props.RoleArn !== undefined ? { RoleArn: String(props.RoleArn) } : {}),
  };
}

/**
 * PutRule answers only the rule's ARN, which names its bus and the rule (the target and tag
 * calls answer nothing): what the name rules need.
 */
function observedOf(ruleArn: string): JsonObject {
  const { bus, name } = ruleLocation(ruleArn);
  return { Name: name, EventBusName: bus };
}
