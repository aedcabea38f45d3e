import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxError } from '../../errors.js';
import { jsonCodec, jsonInput, jsonOperation } from '../../protocols/json.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { InventoryEntry, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { DynaliteServer, TABLE_TRANSITION_MS, type ForwardResponse } from './dynalite-server.js';
import { applySpecifications, describeExtras, ExtrasStore } from './extras.js';
import { dynamoDbCaller, dynamoDbStreams } from '../../ports/index.js';
import { StreamRecorder } from './stream-recorder.js';
import { StreamStore } from './stream-store.js';
import { STREAMS_TARGET_PREFIX, streamsOperation, tableStreams } from './streams-api.js';

const TARGET_PREFIX = 'DynamoDB_20120810';
const MUTATING = new Set([
  'CreateTable',
  'DeleteTable',
  'UpdateTable',
  'PutItem',
  'DeleteItem',
  'UpdateItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TagResource',
  'UntagResource',
  'UpdateTimeToLive',
]);
/** Members dynalite would strip silently; this module keeps them (see extras.ts). */
const EXTRA_MEMBERS = ['StreamSpecification', 'SSESpecification', 'DeletionProtectionEnabled'];

type Json = Record<string, unknown>;

/**
 * DynamoDB, served by dynalite (one in-process server per region) behind the router;
 * this module forwards requests, rewrites dynalite's ARNs to the sandbox's account and the
 * request's region, and adds what dynalite lacks (streams, SSE, time to live).
 */
export const createDynamoDbService: ServiceModuleFactory = async (context) => {
  const extras = await ExtrasStore.load(context.storage);
  const streams = await StreamStore.load(context.storage);
  const streamReader = tableStreams(streams, extras);
  dynamoDbStreams.expose(context, streamReader);
  const servers = new Map<string, Promise<DynaliteServer>>();
  const tables = new Map<string, Map<string, string>>();
  const timers = new Set<NodeJS.Timeout>();
  const lastUpdate = new Map<string, number>();
  /**
   * dynalite finishes an UpdateTable on a timer by writing back the table as it read it,
   * which would undo a later update landing before that timer: later updates wait for it.
   */
  const settled = async (key: string): Promise<void> => {
    const wait = (lastUpdate.get(key) ?? 0) + TABLE_TRANSITION_MS + 10 - Date.now();
    if (wait > 0) await sleep(wait);
  };

  const serverFor = (region: string): Promise<DynaliteServer> => {
    let server = servers.get(region);
    if (!server) {
      const path = context.dataDir === undefined ? undefined : join(context.dataDir, 'dynalite', region);
      server = (async () => {
        if (path !== undefined) await mkdir(path, { recursive: true });
        return DynaliteServer.start(path);
      })();
      servers.set(region, server);
    }
    return server;
  };

  const call = async (
    region: string,
    operation: string,
    input: Json,
    auth: string,
    accountId = context.accountId,
  ): Promise<ForwardResponse> => {
    const response = await (
      await serverFor(region)
    ).forward(`${TARGET_PREFIX}.${operation}`, JSON.stringify(input), auth);
    const arnPrefix = `arn:aws:dynamodb:${region}:${accountId}:table/`;
    return { ...response, body: response.body.replace(/arn:aws:dynamodb:[^:"]+:\d*:table\//g, arnPrefix) };
  };

  const internalAuth = (region: string) =>
    `AWS4-HMAC-SHA256 Credential=sandbox/20200101/${region}/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0`;
  const keyNames = new Map<string, string[]>();
  const recorder = new StreamRecorder(
    streams,
    extras,
    {
      async item(region, table, key) {
        const got = await call(
          region,
          'GetItem',
          { TableName: table, Key: key, ConsistentRead: true },
          internalAuth(region),
        );
        return (JSON.parse(got.body) as { Item?: Record<string, unknown> }).Item;
      },
      async keyNames(region, table) {
        const cached = keyNames.get(`${region}/${table}`);
        if (cached) return cached;
        const described = await call(region, 'DescribeTable', { TableName: table }, internalAuth(region));
        const schema = (
          JSON.parse(described.body) as { Table?: { KeySchema?: Array<{ AttributeName: string }> } }
        ).Table?.KeySchema;
        const names = (schema ?? []).map((entry) => entry.AttributeName);
        if (names.length > 0) keyNames.set(`${region}/${table}`, names);
        return names;
      },
    },
    context.clock,
  );

  dynamoDbCaller.expose(context, {
    async call(region, operation, input) {
      const response = await recorder.around(region, operation, input, () =>
        call(region, operation, input, internalAuth(region)),
      );
      const body = JSON.parse(response.body || '{}') as Json;
      if (response.status === 200) return { output: body };
      const code = String(body.__type ?? 'InternalServerError')
        .split('#')
        .pop()!;
      return { code, message: String(body.message ?? body.Message ?? '') };
    },
  });

  /** The inventory is read synchronously, so table names and statuses are cached per region. */
  // Refreshes overlap; only the latest started may write, so a slow stale one never wins.
  const refreshesStarted = new Map<string, number>();
  const refreshesApplied = new Map<string, number>();
  const refresh = async (region: string): Promise<void> => {
    const generation = (refreshesStarted.get(region) ?? 0) + 1;
    refreshesStarted.set(region, generation);
    const auth = internalAuth(region);
    const names =
      (JSON.parse((await call(region, 'ListTables', {}, auth)).body) as { TableNames?: string[] })
        .TableNames ?? [];
    const statuses = new Map<string, string>();
    for (const name of names) {
      const described = JSON.parse((await call(region, 'DescribeTable', { TableName: name }, auth)).body) as {
        Table?: { TableStatus?: string };
      };
      if (described.Table) statuses.set(name, described.Table.TableStatus ?? 'ACTIVE');
    }
    if (generation < (refreshesApplied.get(region) ?? 0)) return;
    refreshesApplied.set(region, generation);
    tables.set(region, statuses);
  };
  const refreshSoon = (region: string): void => {
    void refresh(region).catch(() => undefined);
    const timer = setTimeout(() => {
      timers.delete(timer);
      void refresh(region).catch(() => undefined);
    }, TABLE_TRANSITION_MS + 40);
    timers.add(timer);
  };

  if (context.dataDir !== undefined) {
    const regions = await readdir(join(context.dataDir, 'dynalite')).catch(() => [] as string[]);
    for (const region of regions) await refresh(region);
  }

  const handle = async (request: SandboxRequest, operation: string): Promise<SandboxResponse> => {
    const input = jsonInput(request);
    const region = request.region;
    if (isStreamsRequest(request)) {
      return json(streamsOperation(operation, input, region, streams, streamReader, extras));
    }
    const auth = request.headers.authorization ?? '';
    const tableName = typeof input.TableName === 'string' ? input.TableName : '';
    const tableArn = `arn:aws:dynamodb:${region}:${request.accountId}:table/${tableName}`;
    const describe = () => call(region, 'DescribeTable', { TableName: tableName }, auth, request.accountId);

    if (operation === 'UpdateTimeToLive' || operation === 'DescribeTimeToLive') {
      const found = await describe();
      if (found.status !== 200) return found;
      return json(await timeToLive(operation, input, region, tableName));
    }

    const forwarded = Object.fromEntries(Object.entries(input).filter(([k]) => !EXTRA_MEMBERS.includes(k)));
    const hasExtras = EXTRA_MEMBERS.some((member) => member in input);
    if (operation === 'UpdateTable' && hasExtras) {
      const current = extras.get(region, tableName);
      const stream = input.StreamSpecification as { StreamEnabled?: boolean } | undefined;
      if (stream?.StreamEnabled === true && current.stream) {
        throw new SandboxError(
          'ValidationException',
          `Table already has an enabled stream: ${tableArn}`,
          400,
        );
      }
    }
    if (operation === 'DeleteTable' && extras.get(region, tableName).deletionProtection) {
      throw new SandboxError(
        'ValidationException',
        'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.',
        400,
      );
    }
    if (operation === 'UpdateTable' || operation === 'DeleteTable') await settled(`${region}/${tableName}`);
    const onlyExtras = operation === 'UpdateTable' && hasExtras && Object.keys(forwarded).length === 1;
    if (operation === 'DeleteTable' || operation === 'CreateTable') keyNames.delete(`${region}/${tableName}`);
    const response = onlyExtras
      ? await describe()
      : await recorder.around(region, operation, forwarded, () =>
          call(region, operation, forwarded, auth, request.accountId),
        );
    if (
      operation === 'DescribeTable' &&
      response.status === 400 &&
      response.body.includes('ResourceNotFoundException')
    ) {
      // An answer that the table is gone settles the inventory at once (a destroy checks it next).
      tables.get(region)?.delete(tableName);
    }
    if (response.status !== 200) return response;
    if (MUTATING.has(operation)) refreshSoon(region);
    if (operation === 'UpdateTable') lastUpdate.set(`${region}/${tableName}`, Date.now());

    if ((operation === 'CreateTable' || operation === 'UpdateTable') && hasExtras) {
      await extras.save(
        applySpecifications(extras.get(region, tableName), input, tableArn, request.accountId),
      );
    }
    if (operation === 'CreateTable' && Array.isArray(input.Tags) && input.Tags.length > 0) {
      // dynalite's CreateTable drops Tags; DynamoDB keeps them (ListTagsOfResource returns them).
      const tagged = await call(region, 'TagResource', { ResourceArn: tableArn, Tags: input.Tags }, auth);
      if (tagged.status !== 200) return tagged;
    }
    if (operation === 'DeleteTable') await extras.delete(region, tableName);
    const member =
      operation === 'DescribeTable'
        ? 'Table'
        : ['CreateTable', 'UpdateTable'].includes(operation)
          ? 'TableDescription'
          : undefined;
    if (member === undefined || operation === 'DeleteTable') return response;
    const body = JSON.parse(response.body) as Json;
    const key = onlyExtras ? 'Table' : member;
    const description = { ...(body[key] as Json), ...describeExtras(extras.get(region, tableName)) };
    return json({ [member]: description });
  };

  const timeToLive = async (
    operation: string,
    input: Json,
    region: string,
    tableName: string,
  ): Promise<Json> => {
    const current = extras.get(region, tableName);
    if (operation === 'DescribeTimeToLive') {
      return {
        TimeToLiveDescription: current.ttl
          ? { TimeToLiveStatus: 'ENABLED', AttributeName: current.ttl.AttributeName }
          : { TimeToLiveStatus: 'DISABLED' },
      };
    }
    const spec = input.TimeToLiveSpecification as { Enabled?: boolean; AttributeName?: string } | undefined;
    if (!spec || typeof spec.AttributeName !== 'string' || typeof spec.Enabled !== 'boolean') {
      throw new SandboxError(
        'ValidationException',
        'TimeToLiveSpecification needs AttributeName and Enabled.',
        400,
      );
    }
    if (spec.Enabled && current.ttl)
      throw new SandboxError('ValidationException', 'TimeToLive is already enabled', 400);
    if (!spec.Enabled && !current.ttl)
      throw new SandboxError('ValidationException', 'TimeToLive is already disabled', 400);
    const next = { ...current };
    if (spec.Enabled) next.ttl = { AttributeName: spec.AttributeName };
    else delete next.ttl;
    await extras.save(next);
    return { TimeToLiveSpecification: spec };
  };

  const module: ServiceModule = {
    name: 'dynamodb',
    codec: jsonCodec('1.0'),
    operation: (request) =>
      jsonOperation(request, isStreamsRequest(request) ? STREAMS_TARGET_PREFIX : TARGET_PREFIX),
    isMutating: (operation) => MUTATING.has(operation),
    handle,
    inventory() {
      const entries: InventoryEntry[] = [];
      for (const [region, statuses] of tables) {
        for (const [name, status] of statuses) entries.push({ id: name, region, status });
      }
      return { 'AWS::DynamoDB::Table': entries };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const server of servers.values()) await (await server).stop();
    },
  };
  return module;
};

/** DynamoDB Streams signs as `dynamodb` too; its target prefix tells it apart. */
function isStreamsRequest(request: SandboxRequest): boolean {
  return (request.headers['x-amz-target'] ?? '').startsWith(`${STREAMS_TARGET_PREFIX}.`);
}

function json(output: unknown): SandboxResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(output),
  };
}
