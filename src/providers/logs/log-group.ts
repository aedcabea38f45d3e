import {
  AssociateKmsKeyCommand,
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DeleteDataProtectionPolicyCommand,
  DeleteLogGroupCommand,
  DeleteRetentionPolicyCommand,
  DescribeLogGroupsCommand,
  DisassociateKmsKeyCommand,
  GetDataProtectionPolicyCommand,
  ListTagsForResourceCommand,
  PutDataProtectionPolicyCommand,
  PutRetentionPolicyCommand,
  TagResourceCommand,
  UntagResourceCommand,
  type LogGroup,
} from '@aws-sdk/client-cloudwatch-logs';
import { awsErrorCode, httpStatusOf } from '../../aws/error-class.js';
import { replacementOf } from '../../plan/resource-schemas.js';
import { generatePhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { changed, isNotFound, optionalText, tagDiff, tagList, tagMap, uncovered } from './common.js';
import { retentionAction } from './retention.js';

export const LOG_GROUP = 'AWS::Logs::LogGroup';

const COVERED = new Set([
  'LogGroupName',
  'RetentionInDays',
  'KmsKeyId',
  'Tags',
  'DataProtectionPolicy',
  'LogGroupClass',
]);
/** No API changes a group's class; the schema does not say so, the API does. */
const NOT_UPDATABLE = new Set(['LogGroupClass']);

export const LOG_GROUP_NAME_RULES = { maxLength: 512, extraCharacters: '-_/#.' };

/** AWS::Logs::LogGroup through CloudWatch Logs. Physical id and Ref: the group name. */
export class LogGroupProvider implements Provider {
  readonly kind = 'sdk' as const;
  /** Per idempotency token, the name its first attempt chose, so a retry cannot make a second group. */
  private readonly names = new Map<string, string>();
  /** Tokens whose create call got no answer (it may have made the group). */
  private readonly unanswered = new Set<string>();

  handles(type: string): boolean {
    return type === LOG_GROUP;
  }

  canUpdateInPlace(type: string, changedProperties: readonly string[]): boolean {
    return !changedProperties.some((p) => NOT_UPDATABLE.has(p) || replacementOf(type, p) === 'yes');
  }

  uncoveredProperties(_type: string, properties: JsonObject): string[] {
    return uncovered(properties, COVERED);
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    const retention = retentionAction(props.RetentionInDays);
    const token = request.idempotencyToken;
    const name = this.nameFor(request, context);
    const client = await logsClient(context);
    try {
      await client.send(
        new CreateLogGroupCommand({
          logGroupName: name,
          kmsKeyId: optionalText(props.KmsKeyId),
          logGroupClass: optionalText(props.LogGroupClass) as 'STANDARD' | undefined,
          tags: props.Tags === undefined ? undefined : tagMap(props.Tags),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      // A retry after an unanswered attempt finds the group that attempt made: adopt it.
      const adopt =
        token !== undefined &&
        this.unanswered.has(token) &&
        awsErrorCode(error) === 'ResourceAlreadyExistsException';
      if (!adopt) {
        if (token !== undefined && unanswered(error)) this.unanswered.add(token);
        throw error;
      }
    }
    if (retention.action === 'put') {
      await client.send(
        new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: retention.days }),
      );
    }
    if (props.DataProtectionPolicy !== undefined) {
      await client.send(
        new PutDataProtectionPolicyCommand({
          logGroupIdentifier: name,
          policyDocument: policyText(props.DataProtectionPolicy),
        }),
      );
    }
    const group = await describe(client, name);
    if (token !== undefined) {
      this.names.delete(token);
      this.unanswered.delete(token);
    }
    return {
      physicalId: name,
      attributes: attributes(group!),
      creationIdentity: { Arn: group!.arn!, creationTime: group!.creationTime! },
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { properties: after, previousProperties: before, physicalId: name } = request;
    const retention = retentionAction(after.RetentionInDays);
    const client = await logsClient(context);
    const signal = { abortSignal: context.signal };
    if (changed(before, after, 'RetentionInDays')) {
      if (retention.action === 'put') {
        await client.send(
          new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: retention.days }),
          signal,
        );
      } else {
        await client.send(new DeleteRetentionPolicyCommand({ logGroupName: name }), signal);
      }
    }
    if (changed(before, after, 'KmsKeyId')) {
      if (after.KmsKeyId === undefined) {
        await client.send(new DisassociateKmsKeyCommand({ logGroupName: name }), signal);
      } else {
        await client.send(
          new AssociateKmsKeyCommand({ logGroupName: name, kmsKeyId: String(after.KmsKeyId) }),
          signal,
        );
      }
    }
    if (changed(before, after, 'DataProtectionPolicy')) {
      if (after.DataProtectionPolicy === undefined) {
        await client.send(new DeleteDataProtectionPolicyCommand({ logGroupIdentifier: name }), signal);
      } else {
        await client.send(
          new PutDataProtectionPolicyCommand({
            logGroupIdentifier: name,
            policyDocument: policyText(after.DataProtectionPolicy),
          }),
          signal,
        );
      }
    }
    const group = await describe(client, name);
    if (!group) throw missing(name);
    if (changed(before, after, 'Tags')) {
      const diff = tagDiff(tagMap(before.Tags), tagMap(after.Tags));
      const resourceArn = group.logGroupArn!;
      if (diff.remove.length > 0)
        await client.send(new UntagResourceCommand({ resourceArn, tagKeys: diff.remove }), signal);
      if (Object.keys(diff.set).length > 0)
        await client.send(new TagResourceCommand({ resourceArn, tags: diff.set }), signal);
    }
    return { physicalId: name, attributes: attributes(group) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    try {
      await client.send(new DeleteLogGroupCommand({ logGroupName: request.physicalId }), {
        abortSignal: context.signal,
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await logsClient(context);
    const group = await describe(client, request.physicalId);
    if (!group) return undefined;
    const resourceArn = group.logGroupArn!;
    const [tags, protection] = await Promise.all([
      client.send(new ListTagsForResourceCommand({ resourceArn })),
      client.send(new GetDataProtectionPolicyCommand({ logGroupIdentifier: group.logGroupName! })),
    ]);
    const properties: JsonObject = {
      LogGroupName: group.logGroupName,
      // cdkd's readback spelling of "never expires" (spec 002) is 0.
      RetentionInDays: group.retentionInDays ?? 0,
      LogGroupClass: group.logGroupClass,
      ...(group.kmsKeyId !== undefined ? { KmsKeyId: group.kmsKeyId } : {}),
      ...(protection.policyDocument !== undefined
        ? { DataProtectionPolicy: JSON.parse(protection.policyDocument) as unknown }
        : {}),
      ...(Object.keys(tags.tags ?? {}).length > 0 ? { Tags: tagList(tags.tags) } : {}),
    };
    return {
      properties,
      attributes: attributes(group),
      creationIdentity: { Arn: group.arn!, creationTime: group.creationTime! },
    };
  }

  private nameFor(request: ResourceRequest, context: ProviderContext): string {
    if (request.properties.LogGroupName !== undefined) return String(request.properties.LogGroupName);
    const token = request.idempotencyToken;
    const known = token !== undefined ? this.names.get(token) : undefined;
    if (known !== undefined) return known;
    const name = generatePhysicalName(context.stackName, request.logicalId, LOG_GROUP_NAME_RULES);
    if (token !== undefined) this.names.set(token, name);
    return name;
  }
}

export function logsClient(context: ProviderContext): Promise<CloudWatchLogsClient> {
  return context.clients.client(CloudWatchLogsClient, context.region);
}

/** The group with exactly this name (DescribeLogGroups matches by prefix), or undefined. */
async function describe(client: CloudWatchLogsClient, name: string): Promise<LogGroup | undefined> {
  let nextToken: string | undefined;
  do {
    const page = await client.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name, nextToken }));
    const found = page.logGroups?.find((group) => group.logGroupName === name);
    if (found) return found;
    nextToken = page.nextToken;
  } while (nextToken !== undefined);
  return undefined;
}

/** No answer, or a 5xx: the call may have made the group. */
function unanswered(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === undefined || status >= 500;
}

function attributes(group: LogGroup): JsonObject {
  return { Arn: group.arn };
}

function policyText(policy: unknown): string {
  return typeof policy === 'string' ? policy : JSON.stringify(policy);
}

function missing(name: string): Error {
  const error = new Error(`The log group ${name} does not exist.`);
  error.name = 'ResourceNotFoundException';
  return error;
}
