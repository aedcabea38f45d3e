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

import { nameFromToken, tokenPhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  CreationIdentity,
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
import { changed, isNotFound, optionalText } from './common.js';
import { tagList, tagMap } from '../tags.js';
import { updateTags } from '../tag-updates.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { MadeByAttempts, type MadeResource } from '../resource-made.js';
import { retentionAction } from './retention.js';
import { SINGLE_ATTEMPT, type ClientTuning } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const LOG_GROUP = 'AWS::Logs::LogGroup';

const COVERED = new Set([
  'LogGroupName',
  'RetentionInDays',
  'KmsKeyId',
  'Tags',
  'DataProtectionPolicy',
  'LogGroupClass',
]);

export const LOG_GROUP_NAME_RULES = { maxLength: 512, extraCharacters: '-_/#.' };

/**
 * AWS::Logs::LogGroup through CloudWatch Logs. Physical id and Ref: the group name. A
 * create whose read-back, retention or data-protection call fails after the group was
 * made reports it made (ResourceMadeError, with its creation identity once read).
 */
export class LogGroupProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: LOG_GROUP,
    covered: COVERED,
    replaces: 'schema-and-own-rules',
  };
  /** Tokens whose create call got no answer (it may have made the group). */
  private readonly unanswered = new Set<string>();
  /** Per idempotency token, the group an attempt made before a follow-up failed. */
  private readonly made = new MadeByAttempts();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    const retention = retentionAction(props.RetentionInDays);
    const token = request.idempotencyToken;
    const name = groupName(request, context);
    const client = await logsClient(context);
    // An earlier attempt of this create made the group, then a follow-up failed: take it back.
    const earlier = this.made.get(token)?.physicalId === name;
    let created = false;
    if (!earlier) {
      try {
        await (
          await logsClient(context, SINGLE_ATTEMPT)
        ).send(
          new CreateLogGroupCommand({
            logGroupName: name,
            kmsKeyId: optionalText(props.KmsKeyId),
            logGroupClass: optionalText(props.LogGroupClass) as 'STANDARD' | undefined,
            tags: props.Tags === undefined ? undefined : tagMap(props.Tags),
          }),
          { abortSignal: context.signal },
        );
        created = true;
      } catch (error) {
        // A retry after an unanswered attempt finds the group that attempt made: adopt it.
        // A name generated from the token is this create's alone, answered or not.
        const adopt =
          token !== undefined &&
          (this.unanswered.has(token) || props.LogGroupName === undefined) &&
          awsErrorCode(error) === 'ResourceAlreadyExistsException';
        if (!adopt) {
          if (token !== undefined && unanswered(error)) this.unanswered.add(token);
          throw error;
        }
      }
    }
    // Proven made: this attempt's create returned, an earlier one's did, or the name is one
    // only this create generates. An explicit name adopted after an unanswered call is not.
    const proven = created || earlier || props.LogGroupName === undefined;
    let made: MadeResource = { physicalId: name };
    let group: LogGroup;
    try {
      group = (await describe(client, name)) ?? missingGroup(name);
      made = { physicalId: name, creationIdentity: identityOf(group) };
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
    } catch (error) {
      if (proven) throw this.made.failed(token, made, error);
      throw error;
    }
    if (token !== undefined) {
      this.unanswered.delete(token);
      this.made.forget(token);
    }
    // The describe ran before PutRetentionPolicy, whose success is what AWS now holds.
    const retained = retention.action === 'put' ? { ...group, retentionInDays: retention.days } : group;
    return {
      physicalId: name,
      attributes: attributes(group),
      creationIdentity: identityOf(group),
      observed: observedOf(retained),
    };
  }

  /** The group a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.LogGroupName, request)) return 'unknown';
    const name = groupName(request, context);
    return (await describe(await logsClient(context), name)) ? { physicalId: name } : 'none';
  }

  /** An explicit name a group already holds (one Lambda made on first invocation, say) is refused up front. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    if (request.properties.LogGroupName === undefined) return undefined;
    const name = String(request.properties.LogGroupName);
    return (await describe(await logsClient(context), name)) ? { name, holder: name } : { name };
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
      const resourceArn = group.logGroupArn!;
      await updateTags(before.Tags, after.Tags, {
        tag: (tags) => client.send(new TagResourceCommand({ resourceArn, tags }), signal),
        untag: (tagKeys) => client.send(new UntagResourceCommand({ resourceArn, tagKeys }), signal),
      });
    }
    return { physicalId: name, attributes: attributes(group), observed: observedOf(group) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteLogGroupCommand({ logGroupName: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isNotFound,
    );
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
      ...observedOf(group),
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
      creationIdentity: identityOf(group),
    };
  }
}

function groupName(request: ResourceRequest, context: ProviderContext): string {
  return request.properties.LogGroupName !== undefined
    ? String(request.properties.LogGroupName)
    : tokenPhysicalName(context.stackName, request, LOG_GROUP_NAME_RULES);
}

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function logsClient(
  context: ProviderContext,
  tuning: ClientTuning = {},
): Promise<CloudWatchLogsClient> {
  return context.clients.client(CloudWatchLogsClient, context.region, tuning);
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

/** What a write's own DescribeLogGroups shows; never-expiring retention is cdkd's 0 (spec 002). */
function observedOf(group: LogGroup): JsonObject {
  return {
    LogGroupName: group.logGroupName,
    RetentionInDays: group.retentionInDays ?? 0,
    ...(group.deletionProtectionEnabled !== undefined
      ? { DeletionProtectionEnabled: group.deletionProtectionEnabled }
      : {}),
  };
}

function attributes(group: LogGroup): JsonObject {
  return { Arn: group.arn };
}

function identityOf(group: LogGroup): CreationIdentity {
  return { Arn: group.arn!, creationTime: group.creationTime! };
}

function policyText(policy: unknown): string {
  return typeof policy === 'string' ? policy : JSON.stringify(policy);
}

function missingGroup(name: string): never {
  throw missing(name);
}

function missing(name: string): Error {
  const error = new Error(`The log group ${name} does not exist.`);
  error.name = 'ResourceNotFoundException';
  return error;
}
