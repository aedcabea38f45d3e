import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeStateMachineCommand,
  ListTagsForResourceCommand,
  SFNClient,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateStateMachineCommand,
  type DescribeStateMachineCommandOutput,
  type StateMachineType,
} from '@aws-sdk/client-sfn';
import { awsErrorCode } from '../../aws/error-class.js';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { givenOrTokenName, namedCreateToken, nameFromToken, TOKEN_TAG } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { retryClassOf } from '../retry-class.js';
import { PropagationGate } from '../retry-propagation.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { tagDiff, tagMap } from '../tags.js';
import { apiTags, createTags, definitionOf, loggingOf, templateLogging, tracingOf } from './machine-input.js';

export const STATE_MACHINE_TYPE = 'AWS::StepFunctions::StateMachine';

/**
 * What the CDK's StateMachine emits (DefinitionString, often a Fn::Join already resolved to
 * text, with DefinitionSubstitutions where given). Definition as an object, an S3 location
 * and encryption settings are left to Cloud Control.
 */
const COVERED = [
  'StateMachineName',
  'DefinitionString',
  'DefinitionSubstitutions',
  'RoleArn',
  'StateMachineType',
  'LoggingConfiguration',
  'TracingConfiguration',
  'Tags',
];

/** Step Functions' name limit and the characters a generated name keeps. */
export const STATE_MACHINE_NAME_RULES = { maxLength: 80, extraCharacters: '-_' };

const NOT_FOUND = ['StateMachineDoesNotExist', 'ResourceNotFound'];

/**
 * AWS::StepFunctions::StateMachine through CreateStateMachine, UpdateStateMachine and
 * DeleteStateMachine. Physical id and Ref: the machine's ARN. CreateStateMachine answers a
 * machine already holding the name with the same definition, type and settings with that
 * machine, so a retried create under its token-derived name meets its own first attempt.
 */
export class StateMachineProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: STATE_MACHINE_TYPE, covered: COVERED };
  /** Machines on one new role wait on one probe, not one call each (spec 003, "IAM propagation"). */
  private readonly roles = new PropagationGate();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const name = this.createName(request, context);
    const token = namedCreateToken(properties.StateMachineName, request);
    const client = await sfn(context);
    const roleArn = String(properties.RoleArn);
    const made = await this.roles.call(
      roleArn,
      () =>
        client.send(
          new CreateStateMachineCommand({
            name,
            definition: definitionOf(properties),
            roleArn,
            type: (properties.StateMachineType as StateMachineType | undefined) ?? 'STANDARD',
            loggingConfiguration: loggingOf(properties),
            tracingConfiguration: tracingOf(properties),
            tags: createTags(properties, token !== undefined ? { [TOKEN_TAG]: token } : {}),
          }),
          { abortSignal: context.signal },
        ),
      roleNotYetAssumable,
    );
    const arn = made.stateMachineArn!;
    return {
      physicalId: arn,
      attributes: { Arn: arn, Name: name },
      creationIdentity: { Arn: arn, CreationDate: made.creationDate!.toISOString() },
    };
  }

  /** The name the template gives, else the one generated from the create's token. */
  createName(request: ResourceRequest, context: ProviderContext): string {
    return givenOrTokenName(
      request.properties.StateMachineName,
      context.stackName,
      request,
      STATE_MACHINE_NAME_RULES,
    );
  }

  /** CreateStateMachine answers with the machine already holding an explicit name when they match: look it up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    const given = request.properties.StateMachineName;
    if (given === undefined || given === '') return undefined;
    const name = String(given);
    const live = await describe(await sfn(context), arnFor(name, context), context);
    return { name, ...(live && { holder: live.stateMachineArn! }) };
  }

  /**
   * The machine a create with this token made: its generated name derives from the token; an
   * explicit name counts only when the machine holds the token tag the create wrote.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const client = await sfn(context);
    const arn = arnFor(this.createName(request, context), context);
    const live = await describe(client, arn, context);
    if (!live) return 'none';
    if (nameFromToken(request.properties.StateMachineName, request)) return { physicalId: arn };
    return (await tagsOf(client, arn, context))[TOKEN_TAG] === token ? { physicalId: arn } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await sfn(context);
    const arn = request.physicalId;
    const before = request.previousProperties;
    const after = request.properties;
    const differs = (...names: string[]) =>
      names.some((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
    const changes = {
      ...(differs('DefinitionString', 'DefinitionSubstitutions') && { definition: definitionOf(after) }),
      ...(differs('RoleArn') && { roleArn: String(after.RoleArn) }),
      ...(differs('LoggingConfiguration') && { loggingConfiguration: loggingOf(after) }),
      ...(differs('TracingConfiguration') && { tracingConfiguration: tracingOf(after) }),
    };
    let revisionId: string | undefined;
    if (Object.keys(changes).length > 0) {
      const send = () =>
        client.send(new UpdateStateMachineCommand({ stateMachineArn: arn, ...changes }), {
          abortSignal: context.signal,
        });
      const updated = changes.roleArn
        ? await this.roles.call(changes.roleArn, send, roleNotYetAssumable)
        : await send();
      revisionId = updated.revisionId;
    }
    await retag(client, arn, before, after, context);
    return {
      physicalId: arn,
      attributes: {
        Arn: arn,
        Name: nameOf(arn),
        ...(revisionId !== undefined && { StateMachineRevisionId: revisionId }),
      },
    };
  }

  /** A machine already gone is deleted (DeleteStateMachine itself succeeds on one). */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await sfn(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteStateMachineCommand({ stateMachineArn: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn(...NOT_FOUND),
    );
  }

  /** The machine as DescribeStateMachine and ListTagsForResource answer, in template terms. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await sfn(context);
    const arn = request.physicalId;
    const live = await describe(client, arn, context);
    if (!live || live.status === 'DELETING') return undefined;
    const tags = Object.entries(await tagsOf(client, arn, context)).filter(([key]) => key !== TOKEN_TAG);
    const logging = templateLogging(live.loggingConfiguration);
    return {
      properties: {
        StateMachineName: live.name,
        ...definitionAsTemplate(live.definition ?? '', request.properties),
        RoleArn: live.roleArn,
        StateMachineType: live.type,
        ...(logging && logging.Level !== 'OFF' && { LoggingConfiguration: logging }),
        ...(live.tracingConfiguration?.enabled === true && { TracingConfiguration: { Enabled: true } }),
        ...(tags.length > 0 && { Tags: tags.map(([Key, Value]) => ({ Key, Value })) }),
      },
      attributes: {
        Arn: arn,
        Name: live.name,
        ...(live.revisionId !== undefined && { StateMachineRevisionId: live.revisionId }),
      },
      creationIdentity: { Arn: arn, CreationDate: live.creationDate!.toISOString() },
    };
  }
}

/**
 * The live definition as the template wrote it: the template's own DefinitionString and
 * substitutions when they produce the live text, else the live text.
 */
function definitionAsTemplate(live: string, template: JsonObject): JsonObject {
  if (template.DefinitionSubstitutions !== undefined && definitionOf(template) === live) {
    return {
      DefinitionString: template.DefinitionString,
      DefinitionSubstitutions: template.DefinitionSubstitutions,
    };
  }
  return { DefinitionString: live };
}

/** "Neither the global service principal states.amazonaws.com, nor the regional one is authorized to assume the provided role." */
function roleNotYetAssumable(error: unknown): boolean {
  return awsErrorCode(error) === 'AccessDeniedException' && retryClassOf(error) === 'iam-propagation';
}

async function retag(
  client: SFNClient,
  resourceArn: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<void> {
  const { set, remove } = tagDiff(tagMap(before.Tags), tagMap(after.Tags));
  const signal = { abortSignal: context.signal };
  if (remove.length > 0)
    await client.send(new UntagResourceCommand({ resourceArn, tagKeys: remove }), signal);
  if (Object.keys(set).length > 0) {
    await client.send(new TagResourceCommand({ resourceArn, tags: apiTags(set) }), signal);
  }
}

async function tagsOf(client: SFNClient, resourceArn: string, context: ProviderContext) {
  const { tags } = await client.send(new ListTagsForResourceCommand({ resourceArn }), {
    abortSignal: context.signal,
  });
  return Object.fromEntries((tags ?? []).map((tag) => [tag.key!, tag.value ?? '']));
}

async function describe(
  client: SFNClient,
  stateMachineArn: string,
  context: ProviderContext,
): Promise<DescribeStateMachineCommandOutput | undefined> {
  try {
    return await client.send(new DescribeStateMachineCommand({ stateMachineArn }), {
      abortSignal: context.signal,
    });
  } catch (error) {
    if (NOT_FOUND.includes(awsErrorCode(error) ?? '')) return undefined;
    throw error;
  }
}

function arnFor(name: string, context: ProviderContext): string {
  return `arn:${partitionForRegion(context.region)}:states:${context.region}:${context.accountId}:stateMachine:${name}`;
}

function nameOf(arn: string): string {
  return arn.slice(arn.lastIndexOf(':') + 1);
}

function sfn(context: ProviderContext): Promise<SFNClient> {
  return context.clients.client(SFNClient, context.region);
}
