import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { strToU8 } from 'fflate';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { CdkdError } from '../../src/errors.js';
import type { Clock } from '../../src/providers/clock.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { CustomResourceProvider } from '../../src/providers/custom-resource/index.js';
import { isCustomResourceType } from '../../src/providers/handled-types.js';
import { TABLE, TableProvider } from '../../src/providers/dynamodb/table.js';
import { registerLambda } from '../../src/providers/lambda/index.js';
import type { JsonObject, ProviderKind } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { readEvents } from '../../src/state/event-log.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import type { StackRef } from '../../src/state/state-store.js';
import { keepsResource } from '../../src/template/index.js';
import type { CorpusApp, CorpusStack } from './corpus-apps.js';
import { eventsTo } from '../helpers/recording-io-host.js';

export const ACCOUNT_ID = '000000000000';
export const STATE_BUCKET = 'cdkd-corpus-state';
const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';

/**
 * Cloud Control polling without waiting: the sandbox finishes a request on its next
 * timer tick, so a poll one millisecond later sees it done. `now` stays real, so the
 * 15-minute deadlines keep their meaning.
 */
export const fastClock: Clock = {
  now: () => Date.now(),
  sleep: (_ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      setTimeout(resolve, 1);
    }),
};

export type Inventory = Record<string, Record<string, Array<{ id: string; state?: string }>>>;

/**
 * `type\u0000id` for every resource the sandbox holds. A KMS key pending deletion is gone
 * as far as a destroy can make it (AWS keeps it for its waiting period).
 */
export function inventoryKeys(inventory: Inventory): Set<string> {
  const keys = new Set<string>();
  for (const byType of Object.values(inventory)) {
    for (const [type, entries] of Object.entries(byType)) {
      for (const entry of entries) {
        if (type === 'AWS::KMS::Key' && entry.state === 'PendingDeletion') continue;
        keys.add(resourceKey(type, entry.id));
      }
    }
  }
  return keys;
}

/**
 * Types whose SDK provider writes into a service module that lists them under no id of their
 * own: inline policies and resource policies live on their principal / bucket / topic /
 * queue (checked in its own right). Through Cloud Control they sit in its generic store.
 */
const UNLISTED_WHEN_SDK = new Set([
  // A rule lives in its group; an address is listed under its public IP and allocation id.
  'AWS::EC2::SecurityGroupIngress',
  'AWS::EC2::SecurityGroupEgress',
  'AWS::EC2::EIP',
  'AWS::IAM::Policy',
  'AWS::S3::BucketPolicy',
  'AWS::SNS::TopicPolicy',
  'AWS::SQS::QueuePolicy',
]);

/**
 * SDK-made API Gateway parts whose Ref is one part of the identifier the sandbox lists them
 * under (Cloud Control's, joined by `|`): the rest comes from the API they belong to.
 */
const LISTED_UNDER_CC_IDENTIFIER: Readonly<Record<string, (record: Recorded) => string>> = {
  'AWS::ApiGateway::Resource': (r) => `${String(r.properties.RestApiId)}|${r.physicalId}`,
  'AWS::ApiGateway::Deployment': (r) => `${r.physicalId}|${String(r.properties.RestApiId)}`,
  'AWS::ApiGateway::Stage': (r) => `${String(r.properties.RestApiId)}|${r.physicalId}`,
  // An HTTP API's parts are kept under `apiId|<Ref>`; their Ref is the part's own id.
  'AWS::ApiGatewayV2::Route': (r) => `${String(r.properties.ApiId)}|${r.physicalId}`,
  'AWS::ApiGatewayV2::Integration': (r) => `${String(r.properties.ApiId)}|${r.physicalId}`,
  'AWS::ApiGatewayV2::Stage': (r) => `${String(r.properties.ApiId)}|${r.physicalId}`,
  // A service's Ref is its ARN; the store lists it by Cloud Control's `<ServiceArn>|<Cluster>`.
  'AWS::ECS::Service': (r) => `${r.physicalId}|${/:service\/([^/]+)\//.exec(r.physicalId)?.[1] ?? 'default'}`,
};

/** Resources recorded after deploy, by type and the provider that made them, across the run. */
export const recordedRoutes = new Map<string, Record<ProviderKind, number>>();

/** How the sandbox's inventory names a recorded resource; undefined when it does not list it. */
function inventoryKeyOf(record: Recorded): string | undefined {
  // A custom resource is whatever its handler did: no service lists it.
  if (isCustomResourceType(record.type)) return undefined;
  // The SQS module holds every queue, whichever API made it, and lists it by name; the
  // physical id (Ref) is the queue URL.
  if (record.type === 'AWS::SQS::Queue')
    return resourceKey(record.type, record.physicalId.slice(record.physicalId.lastIndexOf('/') + 1));
  if (record.provisionedBy !== 'sdk') return resourceKey(record.type, record.physicalId);
  if (UNLISTED_WHEN_SDK.has(record.type)) return undefined;
  const listedAs = LISTED_UNDER_CC_IDENTIFIER[record.type];
  if (listedAs) return resourceKey(record.type, listedAs(record));
  return resourceKey(record.type, record.physicalId);
}

const isIn = (inventory: ReadonlySet<string>, record: Recorded): boolean => {
  const key = inventoryKeyOf(record);
  return key === undefined ? false : inventory.has(key);
};

export const resourceKey = (type: string, id: string): string => `${type}\u0000${id}`;

export interface Harness {
  engine: Engine;
  backend: StateBackend;
  registry: ProviderRegistry;
  clients: AwsClients;
  inventory(): Promise<Set<string>>;
}

/**
 * `cc`: every type through Cloud Control. `sdk`: the registry every command uses
 * (`defaultRegistry()`: SDK providers where cdkd has them, Cloud Control for the rest), with
 * the fast clock given to the providers that wait (Lambda, DynamoDB).
 */
export type Routing = 'cc' | 'sdk';

/** A stub handler that never answers fails its custom resource after this long, not an hour. */
const CUSTOM_RESOURCE_WAIT_S = 20;

function registryFor(routing: Routing): ProviderRegistry {
  const registry = new ProviderRegistry(new CloudControlProvider({ clock: fastClock }));
  // Custom resources have no Cloud Control path: both routings send them to their handlers.
  registry.registerSdkFamily(new CustomResourceProvider({ timeoutCapSeconds: CUSTOM_RESOURCE_WAIT_S }));
  if (routing === 'cc') return registry;
  registerSdkProviders(registry);
  registerLambda(registry, { clock: fastClock });
  return registry.registerSdk(TABLE, new TableProvider({ clock: fastClock }));
}

export async function openHarness(
  sandboxUrl: string,
  regions: readonly string[],
  routing: Routing = 'cc',
): Promise<Harness> {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: STATE_BUCKET }));
  const backend = await openStateBackend(clients, STATE_BUCKET, 'cdkd');
  const registry = registryFor(routing);
  const io = eventsTo(() => {});
  const engine = await createEngine({ backend, clients, registry, io, command: 'deploy', regions });
  return {
    engine,
    backend,
    registry,
    clients,
    async inventory() {
      const response = await fetch(`${sandboxUrl}/_sandbox/inventory`);
      return inventoryKeys((await response.json()) as Inventory);
    },
  };
}

export async function seedSsmParameters(
  clients: AwsClients,
  parameters: ReadonlyMap<string, string>,
  regions: readonly string[],
): Promise<void> {
  for (const region of regions) {
    const ssm = await clients.ssm(region);
    for (const [name, value] of parameters) {
      await ssm.send(new PutParameterCommand({ Name: name, Value: value, Type: 'String', Overwrite: true }));
    }
  }
}

/**
 * The CDK asset bucket of each region, holding a stub for every asset the corpus names
 * (the corpus has no payloads): `zip` (stub-handler.ts), or an empty template.
 */
export async function stubAssets(
  clients: AwsClients,
  keys: ReadonlySet<string>,
  regions: readonly string[],
  zip: Uint8Array,
): Promise<void> {
  for (const region of regions) {
    const s3 = await clients.s3(region);
    const bucket = `cdk-hnb659fds-assets-${ACCOUNT_ID}-${region}`;
    await s3.send(
      new CreateBucketCommand({
        Bucket: bucket,
        ...(region === 'us-east-1'
          ? {}
          : { CreateBucketConfiguration: { LocationConstraint: region as never } }),
      }),
    );
    for (const key of keys) {
      const body = key.endsWith('.zip') ? zip : strToU8('{}');
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    }
  }
}

/** How one corpus template fared. */
export type Outcome = { kind: 'deployed' } | { kind: 'failed'; message: string };

interface Recorded {
  stateName: string;
  type: string;
  physicalId: string;
  retained: boolean;
  provisionedBy: ProviderKind;
  properties: JsonObject;
}

/** A template's stack as the engine sees it; state names carry the app number so apps never share one. */
function requestFor(stack: CorpusStack, appNumber: number): StackRequest {
  return {
    // A state name is a CloudFormation stack name; a few corpus files name stacks with dots.
    stateName: `corpus${appNumber}-${stack.stackName.replace(/[^-A-Za-z0-9]/g, '-')}`,
    stackName: stack.stackName,
    region: stack.region,
    accountId: ACCOUNT_ID,
    template: stack.template,
    parameters: stack.parameters,
    nested: stack.nested,
  };
}

export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current !== undefined && parts.length < 4;) {
    if (current instanceof Error) {
      const code = current instanceof CdkdError ? `${current.code}: ` : `${current.name}: `;
      parts.push(`${code}${current.message}`);
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return [...new Set(parts)].join(' <- ');
}

/** The resources a stack's state records, its nested stacks' included. */
async function recordedResources(harness: Harness, stateName: string, region: string): Promise<Recorded[]> {
  const read = await harness.backend.store.read({ stackName: stateName, region });
  if (!read) return [];
  const found: Recorded[] = [];
  for (const [logicalId, record] of Object.entries(read.document.resources) as Array<
    [string, ResourceRecord]
  >) {
    if (record.type === NESTED_STACK_TYPE) {
      found.push(...(await recordedResources(harness, `${stateName}/${logicalId}`, region)));
      continue;
    }
    found.push({
      stateName,
      type: record.type,
      physicalId: record.physicalId,
      retained: keepsResource(record.deletionPolicy),
      provisionedBy: record.provisionedBy,
      properties: record.properties as JsonObject,
    });
  }
  return found;
}

async function stateNames(harness: Harness, stateName: string, region: string): Promise<string[]> {
  const read = await harness.backend.store.read({ stackName: stateName, region });
  if (!read) return [];
  const names = [stateName];
  for (const [logicalId, record] of Object.entries(read.document.resources)) {
    if (record.type === NESTED_STACK_TYPE)
      names.push(...(await stateNames(harness, `${stateName}/${logicalId}`, region)));
  }
  return names;
}

const options = { concurrency: 32 };

/**
 * Deploys an app's stacks in order, then destroys them in reverse, checking that each
 * deployed resource was in the sandbox, that destroy removed all but the retained ones
 * (which the harness then deletes), and that no state is left. Every stack is destroyed
 * whatever happened to its deploy, so a failure leaves nothing behind either.
 */
export async function runApp(
  harness: Harness,
  app: CorpusApp,
  appNumber: number,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const problems = new Map<string, string>();
  const attempted: Array<{ stack: CorpusStack; request: StackRequest }> = [];
  const survivors: Array<{ region: string; record: Recorded }> = [];
  for (const stack of app.stacks) {
    const request = requestFor(stack, appNumber);
    attempted.push({ stack, request });
    try {
      await harness.engine.deploy(request, options);
    } catch (error) {
      survivors.push(...(await rollbackSurvivors(harness, request.stateName)));
      problems.set(stack.file, `deploy: ${describeError(error)}`);
    }
  }
  const recorded = new Map<string, Recorded[]>();
  const afterDeploy = await harness.inventory();
  for (const { stack, request } of attempted) {
    const resources = await recordedResources(harness, request.stateName, request.region);
    recorded.set(stack.file, resources);
    for (const resource of resources) {
      const counts = recordedRoutes.get(resource.type) ?? { sdk: 0, 'cc-api': 0 };
      counts[resource.provisionedBy] += 1;
      recordedRoutes.set(resource.type, counts);
    }
    const missing = resources.filter((r) => inventoryKeyOf(r) !== undefined && !isIn(afterDeploy, r));
    if (missing.length > 0 && !problems.has(stack.file)) {
      problems.set(
        stack.file,
        `recorded but not in the sandbox: ${missing.map((r) => `${r.type} ${r.physicalId}`).join(', ')}`,
      );
    }
  }
  for (const { stack, request } of [...attempted].reverse()) {
    try {
      // As a user cleans up an app whose tables keep DeletionProtectionEnabled on.
      await harness.engine.destroy(request, { ...options, removeProtection: true });
    } catch (error) {
      if (!problems.has(stack.file)) problems.set(stack.file, `destroy: ${describeError(error)}`);
    }
  }
  const afterDestroy = await harness.inventory();
  for (const { stack, request } of attempted) {
    const left = (recorded.get(stack.file) ?? []).filter((r) => isIn(afterDestroy, r));
    const unexpected = left.filter((r) => !r.retained);
    const states = await stateNames(harness, request.stateName, request.region);
    if (!problems.has(stack.file)) {
      if (unexpected.length > 0) {
        problems.set(
          stack.file,
          `left after destroy: ${unexpected.map((r) => `${r.type} ${r.physicalId}`).join(', ')}`,
        );
      } else if (states.length > 0) {
        problems.set(stack.file, `state left after destroy: ${states.join(', ')}`);
      }
    }
    await deleteRetained(
      harness,
      stack.region,
      left.filter((r) => r.retained),
    );
  }
  // What an automatic rollback kept in AWS (DeletionPolicy Retain on a rolled-back create) is named by its events.
  for (const { region, record } of survivors) await deleteRetained(harness, region, [record]);
  for (const { stack } of attempted) {
    const problem = problems.get(stack.file);
    if (problem !== undefined) outcomes.set(stack.file, { kind: 'failed', message: problem });
    else if (!outcomes.has(stack.file)) outcomes.set(stack.file, { kind: 'deployed' });
  }
  return outcomes;
}

/** The resources a stack's (and its nested stacks') rollbacks left running, from the deployment events. */
async function rollbackSurvivors(
  harness: Harness,
  stateName: string,
): Promise<Array<{ region: string; record: Recorded }>> {
  const prefix = harness.backend.store.prefix.replace(/\/+$/, '');
  const stacks = new Map<string, StackRef>();
  for (const key of await harness.backend.objects.listKeys(`${prefix}/${stateName}/`)) {
    const match = key.slice(prefix.length + 1).match(/^(.*)\/([a-z0-9-]+)\/events\//);
    if (match) stacks.set(`${match[1]}|${match[2]}`, { stackName: match[1]!, region: match[2]! });
  }
  const found: Array<{ region: string; record: Recorded }> = [];
  for (const ref of stacks.values()) {
    for (const event of await readEvents(harness.backend.objects, harness.backend.store.prefix, ref)) {
      if (event.status !== 'ROLLBACK_RESOURCE_SUCCEEDED' || !event.survivorId || !event.resourceType)
        continue;
      found.push({
        region: ref.region,
        record: {
          stateName: ref.stackName,
          type: event.resourceType,
          physicalId: event.survivorId,
          retained: true,
          provisionedBy: event.managedBy ?? 'cc-api',
          properties: {},
        },
      });
    }
  }
  return found;
}

/** Resources the template keeps on delete (DeletionPolicy Retain): the test's own cleanup. */
async function deleteRetained(harness: Harness, region: string, resources: Recorded[]): Promise<void> {
  const context = { clients: harness.clients, accountId: ACCOUNT_ID, region, stackName: 'corpus-cleanup' };
  for (const resource of resources) {
    // Through the provider that made it: the SDK and Cloud Control keep different stores here.
    await harness.registry.providerFor(resource.type, resource.provisionedBy).delete(
      {
        logicalId: 'Retained',
        type: resource.type,
        physicalId: resource.physicalId,
        properties: resource.provisionedBy === 'sdk' ? resource.properties : {},
      },
      context,
    );
  }
}
