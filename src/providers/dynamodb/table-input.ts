import type {
  AttributeDefinition,
  BillingMode,
  CreateTableCommandInput,
  GlobalSecondaryIndex,
  KeySchemaElement,
  LocalSecondaryIndex,
  Projection,
  ProvisionedThroughput,
  SSESpecification,
  StreamSpecification,
  Tag,
} from '@aws-sdk/client-dynamodb';
import type { JsonObject } from '../provider.js';

/**
 * CloudFormation's AWS::DynamoDB::Table properties as DynamoDB API shapes. Numbers may
 * arrive as strings (CloudFormation coerces them for Integer/Long properties; so do we).
 */
export function createTableInput(tableName: string, props: JsonObject): CreateTableCommandInput {
  const gsis = (props.GlobalSecondaryIndexes as JsonObject[] | undefined)?.map(globalIndex);
  const lsis = (props.LocalSecondaryIndexes as JsonObject[] | undefined)?.map(localIndex);
  const stream = streamSpecification(props.StreamSpecification);
  const sse = sseSpecification(props.SSESpecification);
  const tags = props.Tags as Tag[] | undefined;
  return {
    TableName: tableName,
    AttributeDefinitions: props.AttributeDefinitions as AttributeDefinition[],
    KeySchema: props.KeySchema as KeySchemaElement[],
    BillingMode: billingMode(props),
    ...(props.ProvisionedThroughput !== undefined
      ? { ProvisionedThroughput: throughput(props.ProvisionedThroughput) }
      : {}),
    ...(gsis ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis ? { LocalSecondaryIndexes: lsis } : {}),
    ...(stream ? { StreamSpecification: stream } : {}),
    ...(sse ? { SSESpecification: sse } : {}),
    ...(props.DeletionProtectionEnabled !== undefined
      ? { DeletionProtectionEnabled: flag(props.DeletionProtectionEnabled) }
      : {}),
    ...(tags && tags.length > 0 ? { Tags: tags.map((t) => ({ Key: t.Key, Value: String(t.Value) })) } : {}),
  };
}

/** A Boolean property as CloudFormation reads it: true or 'true'. */
export function flag(value: unknown): boolean {
  return String(value) === 'true';
}

/** CloudFormation's default is PROVISIONED. */
export function billingMode(props: JsonObject): BillingMode {
  return (props.BillingMode as BillingMode | undefined) ?? 'PROVISIONED';
}

export function throughput(value: unknown): ProvisionedThroughput {
  const t = value as { ReadCapacityUnits: unknown; WriteCapacityUnits: unknown };
  return { ReadCapacityUnits: Number(t.ReadCapacityUnits), WriteCapacityUnits: Number(t.WriteCapacityUnits) };
}

export function globalIndex(index: JsonObject): GlobalSecondaryIndex {
  return {
    IndexName: String(index.IndexName),
    KeySchema: index.KeySchema as KeySchemaElement[],
    Projection: index.Projection as Projection,
    ...(index.ProvisionedThroughput !== undefined
      ? { ProvisionedThroughput: throughput(index.ProvisionedThroughput) }
      : {}),
  };
}

function localIndex(index: JsonObject): LocalSecondaryIndex {
  return {
    IndexName: String(index.IndexName),
    KeySchema: index.KeySchema as KeySchemaElement[],
    Projection: index.Projection as Projection,
  };
}

/** CloudFormation gives only StreamViewType; its presence turns the stream on. */
export function streamSpecification(value: unknown): StreamSpecification | undefined {
  const spec = value as { StreamViewType?: string } | undefined;
  if (!spec?.StreamViewType) return undefined;
  return {
    StreamEnabled: true,
    StreamViewType: spec.StreamViewType as StreamSpecification['StreamViewType'],
  };
}

/** CloudFormation's SSEEnabled / SSEType / KMSMasterKeyId as the API's Enabled / SSEType / KMSMasterKeyId. */
export function sseSpecification(value: unknown): SSESpecification | undefined {
  const spec = value as { SSEEnabled?: unknown; SSEType?: string; KMSMasterKeyId?: string } | undefined;
  if (!spec) return undefined;
  return {
    Enabled: String(spec.SSEEnabled) === 'true',
    ...(spec.SSEType !== undefined ? { SSEType: spec.SSEType as SSESpecification['SSEType'] } : {}),
    ...(spec.KMSMasterKeyId !== undefined ? { KMSMasterKeyId: spec.KMSMasterKeyId } : {}),
  };
}
