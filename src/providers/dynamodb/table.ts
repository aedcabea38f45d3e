import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTagsOfResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { awsErrorCode } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';
import { PROTECTION_OFF_ALLOWANCE_MS, turnOffAdvice } from '../../resource-types/index.js';
import { systemClock, type Clock } from '../clock.js';
import { givenOrTokenName, nameFromToken } from '../physical-names.js';
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
} from '../provider.js';
import { MadeByAttempts } from '../resource-made.js';
import { createTableInput } from './table-input.js';
import { createTtlSteps, tableUpdateSteps, type TableStep } from './table-update.js';
import { describe, waitForTable } from './wait.js';
import { SINGLE_ATTEMPT, type ClientTuning } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const TABLE = 'AWS::DynamoDB::Table';

const COVERED = new Set([
  'TableName',
  'KeySchema',
  'AttributeDefinitions',
  'GlobalSecondaryIndexes',
  'LocalSecondaryIndexes',
  'BillingMode',
  'ProvisionedThroughput',
  'StreamSpecification',
  'SSESpecification',
  'TimeToLiveSpecification',
  'DeletionProtectionEnabled',
  'Tags',
]);

export const TABLE_NAME_RULES = { maxLength: 255, extraCharacters: '-_.' };

export interface TableProviderOptions {
  clock?: Clock;
}

/**
 * AWS::DynamoDB::Table. Physical id and Ref: the table name. Waits for ACTIVE / gone.
 * A create whose wait or TTL step fails after CreateTable returned reports the table
 * made (ResourceMadeError, with its creation identity); its retry takes that table back.
 */
export class TableProvider extends SdkProvider {
  /** PointInTimeRecoverySpecification is uncovered: dynalite has no UpdateContinuousBackups to test it on. */
  readonly description: ProviderDescription = {
    type: TABLE,
    covered: COVERED,
    replaces: 'schema-and-own-rules',
  };
  private readonly clock: Clock;
  /** Per idempotency token, the table an attempt made before its wait or TTL step failed. */
  private readonly made = new MadeByAttempts();

  constructor(options: TableProviderOptions = {}) {
    super();
    this.clock = options.clock ?? systemClock;
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const name = tableName(request, context);
    const client = await dynamoClient(context);
    const token = request.idempotencyToken;
    // A retry after a failed wait or TTL step takes back the table its earlier attempt made.
    let made = this.made.get(token);
    if (!made) {
      try {
        const { TableDescription } = await (
          await dynamoClient(context, SINGLE_ATTEMPT)
        ).send(new CreateTableCommand(createTableInput(name, request.properties)), {
          abortSignal: context.signal,
        });
        made = {
          physicalId: name,
          ...(TableDescription && identifiable(TableDescription)
            ? { creationIdentity: identity(TableDescription) }
            : {}),
        };
      } catch (error) {
        // A name generated from the token is this create's alone: an earlier attempt made the table.
        if (!(generatedFromToken(request) && awsErrorCode(error) === 'ResourceInUseException')) throw error;
        made = { physicalId: name };
      }
    }
    // The table exists from here, even one that never becomes ACTIVE.
    try {
      let table = await this.waitActive(client, made.physicalId, context);
      if (createTtlSteps(request.properties).length > 0) {
        table = await this.apply(client, made.physicalId, createTtlSteps(request.properties), context);
      }
      this.made.forget(token);
      return {
        physicalId: made.physicalId,
        attributes: attributes(table),
        creationIdentity: identity(table),
        observed: writeObserved(table),
      };
    } catch (error) {
      throw this.made.failed(token, made, error);
    }
  }

  /** The table a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!generatedFromToken(request)) return 'unknown';
    const name = tableName(request, context);
    return (await describe(await dynamoClient(context), name)) ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const { physicalId: name, previousProperties: before, properties: after } = request;
    const client = await dynamoClient(context);
    let table = await this.apply(client, name, tableUpdateSteps(before, after), context);
    if (JSON.stringify(before.Tags) !== JSON.stringify(after.Tags)) {
      await this.retag(client, table.TableArn!, before, after, context);
      table = await this.waitActive(client, name, context);
    }
    return { physicalId: name, attributes: attributes(table), observed: writeObserved(table) };
  }

  /**
   * Deletes the table. A protected one is refused by DynamoDB; under --remove-protection its
   * protection is turned off first, and the delete gets a 10-second allowance to see that.
   */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await dynamoClient(context);
    const name = request.physicalId;
    try {
      const table = await this.waitActive(client, name, context);
      const unprotected = request.removeProtection === true && table.DeletionProtectionEnabled === true;
      if (unprotected) {
        await client.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false }), {
          abortSignal: context.signal,
        });
        await this.waitActive(client, name, context);
      }
      await this.deleteTable(client, name, unprotected ? PROTECTION_OFF_ALLOWANCE_MS : 0, context);
    } catch (error) {
      if (awsErrorCode(error) === 'ResourceNotFoundException') return;
      if (isProtectedRefusal(error)) throw protectedTable(request.logicalId, name, error);
      throw error;
    }
    await waitForTable(client, name, 'gone', this.clock, context.signal);
  }

  /** DeleteTable, retried while DynamoDB still sees protection that was just turned off. */
  private async deleteTable(
    client: DynamoDBClient,
    name: string,
    allowanceMs: number,
    context: ProviderContext,
  ): Promise<void> {
    const deadline = this.clock.now() + allowanceMs;
    for (;;) {
      try {
        await client.send(new DeleteTableCommand({ TableName: name }), { abortSignal: context.signal });
        return;
      } catch (error) {
        if (!isProtectedRefusal(error) || this.clock.now() >= deadline) throw error;
        await this.clock.sleep(1000, context.signal);
      }
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await dynamoClient(context);
    const table = await describe(client, request.physicalId);
    if (!table) return undefined;
    const [ttl, tags] = await Promise.all([
      client.send(new DescribeTimeToLiveCommand({ TableName: request.physicalId })),
      client.send(new ListTagsOfResourceCommand({ ResourceArn: table.TableArn })),
    ]);
    return {
      properties: observed(table, ttl.TimeToLiveDescription, tags.Tags),
      attributes: attributes(table),
      creationIdentity: identity(table),
    };
  }

  private waitActive(
    client: DynamoDBClient,
    name: string,
    context: ProviderContext,
  ): Promise<TableDescription> {
    return waitForTable(client, name, 'active', this.clock, context.signal) as Promise<TableDescription>;
  }

  private async apply(
    client: DynamoDBClient,
    name: string,
    steps: TableStep[],
    context: ProviderContext,
  ): Promise<TableDescription> {
    const signal = { abortSignal: context.signal };
    for (const step of steps) {
      if (step.kind === 'ttl') {
        await client.send(
          new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: step.spec }),
          signal,
        );
      } else {
        await client.send(new UpdateTableCommand({ TableName: name, ...step.input }), signal);
      }
      await this.waitActive(client, name, context);
    }
    return this.waitActive(client, name, context);
  }

  private async retag(
    client: DynamoDBClient,
    arn: string,
    before: JsonObject,
    after: JsonObject,
    context: ProviderContext,
  ): Promise<void> {
    const map = (tags: unknown) =>
      new Map(
        ((tags as Array<{ Key: string; Value: unknown }> | undefined) ?? []).map((t) => [
          t.Key,
          String(t.Value),
        ]),
      );
    const old = map(before.Tags);
    const next = map(after.Tags);
    const removed = [...old.keys()].filter((key) => !next.has(key));
    const set = [...next]
      .filter(([key, value]) => old.get(key) !== value)
      .map(([Key, Value]) => ({ Key, Value }));
    const signal = { abortSignal: context.signal };
    if (removed.length > 0)
      await client.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: removed }), signal);
    if (set.length > 0) await client.send(new TagResourceCommand({ ResourceArn: arn, Tags: set }), signal);
  }
}

function isProtectedRefusal(error: unknown): boolean {
  return (
    awsErrorCode(error) === 'ValidationException' &&
    /protected against deletion/i.test(error instanceof Error ? error.message : '')
  );
}

function protectedTable(logicalId: string, name: string, cause: unknown): CdkdError {
  // The advice is in the message: a failed delete reaches the user wrapped in its stack's failure.
  const advice = `run cdkd destroy --remove-protection to turn it off first, or ${turnOffAdvice(TABLE, name)}`;
  return new CdkdError(
    'DELETION_PROTECTED',
    `${logicalId}: DynamoDB refuses to delete the table ${name}: its deletion protection is on; ${advice}.`,
    { hint: `${advice.charAt(0).toUpperCase()}${advice.slice(1)}.`, cause },
  );
}

/** What a write's own table description shows that a rule reads (spec 002's deletion protection). */
function writeObserved(table: TableDescription): JsonObject {
  return {
    TableName: table.TableName,
    DeletionProtectionEnabled: table.DeletionProtectionEnabled === true,
  };
}

function tableName(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.TableName, context.stackName, request, TABLE_NAME_RULES);
}

function generatedFromToken(request: ResourceRequest): boolean {
  return nameFromToken(request.properties.TableName, request);
}

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function dynamoClient(context: ProviderContext, tuning: ClientTuning = {}): Promise<DynamoDBClient> {
  return context.clients.client(DynamoDBClient, context.region, tuning);
}

/** Arn and StreamArn, as CloudFormation's GetAtt returns them (see ref-attributes.ts). */
function attributes(table: TableDescription): JsonObject {
  return {
    Arn: table.TableArn,
    ...(table.LatestStreamArn !== undefined ? { StreamArn: table.LatestStreamArn } : {}),
  };
}

/** Whether a table description (CreateTable's) carries what `identity` needs. */
function identifiable(table: TableDescription): boolean {
  return (
    table.TableId !== undefined || (table.TableArn !== undefined && table.CreationDateTime !== undefined)
  );
}

/** TableId where DynamoDB gives one; else the ARN and creation time. */
function identity(table: TableDescription): CreationIdentity {
  if (table.TableId !== undefined) return { TableId: table.TableId };
  return { Arn: table.TableArn!, creationDateTime: table.CreationDateTime!.getTime() };
}

function observed(
  table: TableDescription,
  ttl: { TimeToLiveStatus?: string; AttributeName?: string } | undefined,
  tags: Array<{ Key?: string; Value?: string }> | undefined,
): JsonObject {
  const mode = table.BillingModeSummary?.BillingMode ?? 'PROVISIONED';
  const strip = (index: {
    IndexName?: string;
    KeySchema?: unknown;
    Projection?: unknown;
    ProvisionedThroughput?: { ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  }) => ({
    IndexName: index.IndexName,
    KeySchema: index.KeySchema,
    Projection: index.Projection,
    ...(mode === 'PROVISIONED' && index.ProvisionedThroughput
      ? {
          ProvisionedThroughput: {
            ReadCapacityUnits: index.ProvisionedThroughput.ReadCapacityUnits,
            WriteCapacityUnits: index.ProvisionedThroughput.WriteCapacityUnits,
          },
        }
      : {}),
  });
  return {
    TableName: table.TableName,
    KeySchema: table.KeySchema,
    AttributeDefinitions: table.AttributeDefinitions,
    BillingMode: mode,
    ...(mode === 'PROVISIONED'
      ? {
          ProvisionedThroughput: {
            ReadCapacityUnits: table.ProvisionedThroughput?.ReadCapacityUnits,
            WriteCapacityUnits: table.ProvisionedThroughput?.WriteCapacityUnits,
          },
        }
      : {}),
    ...(table.GlobalSecondaryIndexes
      ? { GlobalSecondaryIndexes: table.GlobalSecondaryIndexes.map(strip) }
      : {}),
    ...(table.LocalSecondaryIndexes ? { LocalSecondaryIndexes: table.LocalSecondaryIndexes.map(strip) } : {}),
    ...(table.StreamSpecification?.StreamEnabled
      ? { StreamSpecification: { StreamViewType: table.StreamSpecification.StreamViewType } }
      : {}),
    // An AWS-owned key (no SSEDescription) is what `SSEEnabled: false` asks for.
    SSESpecification:
      table.SSEDescription?.Status === 'ENABLED'
        ? { SSEEnabled: true, SSEType: table.SSEDescription.SSEType }
        : { SSEEnabled: false },
    ...(ttl?.TimeToLiveStatus === 'ENABLED'
      ? { TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true } }
      : {}),
    // False too: a template may set it false explicitly (CDK's Table does), and AWS answers it.
    ...(table.DeletionProtectionEnabled !== undefined
      ? { DeletionProtectionEnabled: table.DeletionProtectionEnabled }
      : {}),
    ...(tags && tags.length > 0 ? { Tags: tags.map((t) => ({ Key: t.Key, Value: t.Value })) } : {}),
  };
}
