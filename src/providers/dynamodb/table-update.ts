import type {
  AttributeDefinition,
  TimeToLiveSpecification,
  UpdateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { JsonObject } from '../provider.js';
import {
  billingMode,
  flag,
  globalIndex,
  sseSpecification,
  streamSpecification,
  throughput,
} from './table-input.js';

/** One call an update makes, in order; the table is waited ACTIVE after each UpdateTable. */
export type TableStep =
  | { kind: 'table'; input: Omit<UpdateTableCommandInput, 'TableName'> }
  | { kind: 'ttl'; spec: TimeToLiveSpecification };

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The UpdateTable / UpdateTimeToLive calls that take a table from `before` to `after`
 * (DynamoDB takes one index change per UpdateTable, and a stream's view type changes by
 * disabling and re-enabling it). Tags are applied apart.
 */
export function tableUpdateSteps(before: JsonObject, after: JsonObject): TableStep[] {
  const steps: TableStep[] = [];
  const mode = billingMode(after);
  if (billingMode(before) !== mode || !same(before.ProvisionedThroughput, after.ProvisionedThroughput)) {
    steps.push({
      kind: 'table',
      input: {
        BillingMode: mode,
        ...(mode === 'PROVISIONED' && after.ProvisionedThroughput !== undefined
          ? { ProvisionedThroughput: throughput(after.ProvisionedThroughput) }
          : {}),
      },
    });
  }
  steps.push(...indexSteps(before, after));
  if (!same(before.StreamSpecification, after.StreamSpecification)) {
    if (streamSpecification(before.StreamSpecification)) {
      steps.push({ kind: 'table', input: { StreamSpecification: { StreamEnabled: false } } });
    }
    const stream = streamSpecification(after.StreamSpecification);
    if (stream) steps.push({ kind: 'table', input: { StreamSpecification: stream } });
  }
  if (!same(before.SSESpecification, after.SSESpecification)) {
    steps.push({
      kind: 'table',
      input: { SSESpecification: sseSpecification(after.SSESpecification) ?? { Enabled: false } },
    });
  }
  steps.push(...ttlSteps(before.TimeToLiveSpecification, after.TimeToLiveSpecification));
  if (flag(before.DeletionProtectionEnabled) !== flag(after.DeletionProtectionEnabled)) {
    steps.push({
      kind: 'table',
      input: { DeletionProtectionEnabled: flag(after.DeletionProtectionEnabled) },
    });
  }
  return steps;
}

function indexSteps(before: JsonObject, after: JsonObject): TableStep[] {
  const byName = (props: JsonObject) =>
    new Map(
      ((props.GlobalSecondaryIndexes as JsonObject[] | undefined) ?? []).map((i) => [String(i.IndexName), i]),
    );
  const old = byName(before);
  const next = byName(after);
  const definitions = after.AttributeDefinitions as AttributeDefinition[];
  const steps: TableStep[] = [];
  const create = (index: JsonObject): TableStep => ({
    kind: 'table',
    input: {
      AttributeDefinitions: definitions,
      GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
    },
  });
  const remove = (name: string): TableStep => ({
    kind: 'table',
    input: { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: name } }] },
  });
  for (const name of old.keys()) if (!next.has(name)) steps.push(remove(name));
  for (const [name, index] of next) {
    const previous = old.get(name);
    if (!previous) steps.push(create(index));
    else if (!same(previous.KeySchema, index.KeySchema) || !same(previous.Projection, index.Projection)) {
      // An index's key schema and projection cannot change: it is rebuilt.
      steps.push(remove(name), create(index));
    } else if (
      !same(previous.ProvisionedThroughput, index.ProvisionedThroughput) &&
      index.ProvisionedThroughput
    ) {
      steps.push({
        kind: 'table',
        input: {
          GlobalSecondaryIndexUpdates: [
            { Update: { IndexName: name, ProvisionedThroughput: throughput(index.ProvisionedThroughput) } },
          ],
        },
      });
    }
  }
  return steps;
}

function ttlSteps(before: unknown, after: unknown): TableStep[] {
  const read = (value: unknown) => {
    const spec = value as { AttributeName?: string; Enabled?: unknown } | undefined;
    return spec && String(spec.Enabled) === 'true' && spec.AttributeName ? spec.AttributeName : undefined;
  };
  const was = read(before);
  const now = read(after);
  if (was === now) return [];
  const steps: TableStep[] = [];
  if (was !== undefined) steps.push({ kind: 'ttl', spec: { AttributeName: was, Enabled: false } });
  if (now !== undefined) steps.push({ kind: 'ttl', spec: { AttributeName: now, Enabled: true } });
  return steps;
}

/** The TTL step a create needs after the table is ACTIVE. */
export function createTtlSteps(props: JsonObject): TableStep[] {
  return ttlSteps(undefined, props.TimeToLiveSpecification);
}
