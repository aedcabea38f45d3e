/**
 * Deploy engine benchmark (not a test). Synthetic stacks go through the real engine, the
 * Cloud Control provider and the real AWS SDK against a sandbox running in a child process
 * with a latency model per resource type: wide (500 independent resources), deep (a chain
 * of 50) and serverless (~100 roles, policies, functions, queues, tables, mappings,
 * permissions). Each shape is created at several --concurrency values, redeployed as a
 * no-op, and destroyed. Prints wall time against two lower bounds, engine CPU per resource,
 * state saves and Cloud Control calls per deploy.
 * Run: npx tsx bench/deploy-engine.ts            (about 3 minutes)
 *      npx tsx bench/deploy-engine.ts wide:64    (one shape, optionally one concurrency)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../src/aws/client-factory.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import type { DeployEvent } from '../src/engine/events.js';
import type { StackRequest } from '../src/engine/stack-request.js';
import type { PlannedOperation } from '../src/plan/index.js';
import { CloudControlProvider } from '../src/providers/cloudcontrol/provider.js';
import type { Clock } from '../src/providers/clock.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../src/providers/provider.js';
import { ProviderRegistry } from '../src/providers/registry.js';
import { providerRetry } from '../src/toolkit/session/provider-wiring.js';
import { openStateBackend, type StateBackend } from '../src/state/state-backend.js';
import { serializeState } from '../src/state/state-store.js';
import { DependencyGraph } from '../src/template/index.js';
import { DEFAULT_CONCURRENCY } from '../src/cli/options/deploy-options.js';
import { eventsTo } from '../test/helpers/recording-io-host.js';

/** Provider waits (Cloud Control polling: 1 s, ×1.5, ≤ 10 s) run this many times faster. */
export const TIME_SCALE = 10;
/** Destroys are not measured: their polling runs faster still. */
export const CLEANUP_TIME_SCALE = 100;
const UNLIMITED = Number.MAX_SAFE_INTEGER;
export const REGION = 'us-east-1';
export const ACCOUNT = '000000000000';
export const BUCKET = 'cdkd-bench-state';

/** Create latency in real (already scaled) ms; ×TIME_SCALE is the AWS time it stands for. */
export const CREATE_MS: Record<string, number> = {
  'AWS::SQS::Queue': 200,
  'AWS::SNS::Topic': 150,
  'AWS::SSM::Parameter': 100,
  'AWS::IAM::Role': 400,
  'AWS::IAM::Policy': 300,
  'AWS::DynamoDB::Table': 500,
  'AWS::Logs::LogGroup': 100,
  'AWS::Lambda::Function': 400,
  'AWS::Lambda::EventSourceMapping': 300,
  'AWS::Lambda::Permission': 100,
  'AWS::SNS::Subscription': 150,
  'AWS::SQS::QueuePolicy': 150,
  'AWS::Events::Rule': 200,
};

export type Template = {
  Resources: Record<string, { Type: string; Properties: object; DependsOn?: string[] }>;
};

interface Shape {
  name: string;
  template: Template;
  concurrencies: number[];
}

// ---------------------------------------------------------------------------------------
// Shapes

export function wide(count: number): Template {
  const types = ['AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::SSM::Parameter'];
  const resources: Template['Resources'] = {};
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length]!;
    const tags = [{ Key: 'index', Value: String(i) }];
    resources[`R${i}`] = {
      Type: type,
      Properties:
        type === 'AWS::SSM::Parameter'
          ? { Type: 'String', Value: `value-${i}` }
          : type === 'AWS::SQS::Queue'
            ? { VisibilityTimeout: 30, Tags: tags }
            : { Tags: tags },
    };
  }
  return { Resources: resources };
}

/** Each link reads the one before it (GetAtt Arn, or Ref for a parameter). */
export function deep(length: number): Template {
  const types = ['AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::SSM::Parameter'];
  const resources: Template['Resources'] = {};
  for (let i = 0; i < length; i++) {
    const type = types[i % types.length]!;
    const previous = i === 0 ? 'root' : { 'Fn::GetAtt': [`L${i - 1}`, 'Arn'] };
    resources[`L${i}`] = {
      Type: type,
      Properties:
        type === 'AWS::SSM::Parameter'
          ? { Type: 'String', Value: i === 0 ? 'root' : { Ref: `L${i - 1}` } }
          : { Tags: [{ Key: 'previous', Value: previous }] },
    };
  }
  return { Resources: resources };
}

/**
 * What a CDK serverless app synthesizes, per service: a role and its policy (reading the
 * table and the queue), a function that waits for the policy, a queue with a DLQ fed by a
 * shared topic (subscription + queue policy), a table, a log group, an event source
 * mapping; one shared schedule rule targets every function, each with an invoke permission.
 * `targetsPerRule` splits the schedule into rules of at most that many targets (EventBridge
 * allows 5 per rule; Cloud Control on the sandbox does not check, the Events API does).
 */
export function serverless(services: number, options: { targetsPerRule?: number } = {}): Template {
  const r: Template['Resources'] = {
    Topic: { Type: 'AWS::SNS::Topic', Properties: {} },
  };
  const getAtt = (id: string, attr: string) => ({ 'Fn::GetAtt': [id, attr] });
  const perRule = options.targetsPerRule ?? services;
  const ruleOf = (i: number) => (perRule >= services ? 'Schedule' : `Schedule${Math.floor(i / perRule)}`);
  for (let i = 0; i < services; i++) {
    const s = `Svc${i}`;
    r[`${s}Dlq`] = { Type: 'AWS::SQS::Queue', Properties: { MessageRetentionPeriod: 1209600 } };
    r[`${s}Queue`] = {
      Type: 'AWS::SQS::Queue',
      Properties: {
        VisibilityTimeout: 180,
        RedrivePolicy: { deadLetterTargetArn: getAtt(`${s}Dlq`, 'Arn'), maxReceiveCount: 3 },
      },
    };
    r[`${s}Table`] = {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    };
    r[`${s}Role`] = {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        },
        ManagedPolicyArns: [
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
              ],
            ],
          },
        ],
      },
    };
    r[`${s}Policy`] = {
      Type: 'AWS::IAM::Policy',
      Properties: {
        PolicyName: `${s}Policy`,
        Roles: [{ Ref: `${s}Role` }],
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'],
              Resource: [getAtt(`${s}Table`, 'Arn'), { 'Fn::Sub': `\${${s}Table.Arn}/index/*` }],
            },
            {
              Effect: 'Allow',
              Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
              Resource: getAtt(`${s}Queue`, 'Arn'),
            },
          ],
        },
      },
    };
    r[`${s}Logs`] = {
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: 14 },
    };
    r[`${s}Function`] = {
      Type: 'AWS::Lambda::Function',
      DependsOn: [`${s}Policy`, `${s}Role`],
      Properties: {
        Code: { ZipFile: 'exports.handler = async () => ({ ok: true });' },
        Handler: 'index.handler',
        Runtime: 'nodejs20.x',
        Role: getAtt(`${s}Role`, 'Arn'),
        Timeout: 30,
        LoggingConfig: { LogGroup: { Ref: `${s}Logs` } },
        Environment: {
          Variables: { TABLE_NAME: { Ref: `${s}Table` }, QUEUE_URL: { Ref: `${s}Queue` } },
        },
      },
    };
    r[`${s}Mapping`] = {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        FunctionName: { Ref: `${s}Function` },
        EventSourceArn: getAtt(`${s}Queue`, 'Arn'),
        BatchSize: 10,
      },
    };
    r[`${s}Subscription`] = {
      Type: 'AWS::SNS::Subscription',
      Properties: { Protocol: 'sqs', TopicArn: { Ref: 'Topic' }, Endpoint: getAtt(`${s}Queue`, 'Arn') },
    };
    r[`${s}QueuePolicy`] = {
      Type: 'AWS::SQS::QueuePolicy',
      Properties: {
        Queues: [{ Ref: `${s}Queue` }],
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { Service: 'sns.amazonaws.com' },
              Action: 'sqs:SendMessage',
              Resource: getAtt(`${s}Queue`, 'Arn'),
              Condition: { ArnEquals: { 'aws:SourceArn': { Ref: 'Topic' } } },
            },
          ],
        },
      },
    };
    r[`${s}Permission`] = {
      Type: 'AWS::Lambda::Permission',
      Properties: {
        Action: 'lambda:InvokeFunction',
        FunctionName: getAtt(`${s}Function`, 'Arn'),
        Principal: 'events.amazonaws.com',
        SourceArn: getAtt(ruleOf(i), 'Arn'),
      },
    };
  }
  for (let i = 0; i < services; i++) {
    const rule = (r[ruleOf(i)] ??= {
      Type: 'AWS::Events::Rule',
      Properties: { ScheduleExpression: 'rate(5 minutes)', Targets: [] },
    });
    (rule.Properties as { Targets: object[] }).Targets.push({
      Id: `Target${i}`,
      Arn: getAtt(`Svc${i}Function`, 'Arn'),
    });
  }
  return { Resources: r };
}

// ---------------------------------------------------------------------------------------
// Sandbox (child process, so this process's CPU is the engine's) and its admin API

/** `args` go to `cdkd sandbox` (e.g. `--latency-profile aws`). */
export async function startSandboxProcess(
  args: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const command = ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', '--port', '0', ...args];
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, ...credentialsEnv(), AWS_ENDPOINT_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (http\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${seen}`)));
  });
  return { url, child };
}

export async function stopSandboxProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleepFor(8000)]);
}

export function credentialsEnv(): Record<string, string> {
  return {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'AKIDSANDBOX',
    AWS_SECRET_ACCESS_KEY: 'sandbox-secret',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

interface CallsSnapshot {
  calls: Record<string, { count: number }>;
}

export function adminApi(url: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/_sandbox/${path}`, {
      method,
      ...(body !== undefined
        ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
        : {}),
    });
    if (!response.ok)
      throw new Error(`${method} /_sandbox/${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

// ---------------------------------------------------------------------------------------
// Measurement

/** A clock whose waits are `factor` times shorter: the provider's polling in scaled time. */
export function scaledClock(factor: number): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) => sleepFor(ms / factor, undefined, signal ? { signal } : {}),
  };
}

interface Span {
  start: number;
  end: number;
}

/** Cloud Control, with the wall time of each create / update / delete call per logical id. */
class TimedProvider implements Provider {
  readonly kind = 'cc-api' as const;
  readonly spans = new Map<string, Span>();

  constructor(private readonly inner: Provider) {}

  handles(type: string): boolean {
    return this.inner.handles(type);
  }

  canUpdateInPlace(type: string, changed: readonly string[]): boolean {
    return this.inner.canUpdateInPlace(type, changed);
  }

  create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    return this.timed(request.logicalId, () => this.inner.create(request, context));
  }

  update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    return this.timed(request.logicalId, () => this.inner.update(request, context));
  }

  delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    return this.timed(request.logicalId, () => this.inner.delete(request, context));
  }

  read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    return this.inner.read(request, context);
  }

  private async timed<T>(logicalId: string, call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await call();
    } finally {
      this.spans.set(logicalId, { start, end: performance.now() });
    }
  }
}

/**
 * The wall time of the engine's own scheduling rule with zero engine time: a resource starts
 * the moment its dependencies finish, at most `slots` at once, the longest remaining path
 * (in resources, as the engine ranks them) first, then template order. Each takes
 * `duration(id)`. With unlimited slots this is the critical path; with few slots it is what
 * walkDag can reach at best (max(critical path, work / slots) is a looser lower bound).
 */
export function idealSchedule(
  ops: readonly PlannedOperation[],
  duration: (id: string) => number,
  slots: number,
): number {
  const ids = new Set(ops.map((op) => op.logicalId));
  const depsOf = (op: PlannedOperation) => op.dependsOn.filter((dep) => ids.has(dep));
  const graph = DependencyGraph.fromEdges(
    ids,
    ops.flatMap((op) => depsOf(op).map((dep) => [op.logicalId, dep] as const)),
  );
  const order = new Map(ops.map((op, index) => [op.logicalId, index]));
  const waiting = new Map(ops.map((op) => [op.logicalId, depsOf(op).length]));
  const ready = ops.filter((op) => depsOf(op).length === 0).map((op) => op.logicalId);
  const running: Array<{ id: string; end: number }> = [];
  let now = 0;
  while (ready.length > 0 || running.length > 0) {
    ready.sort(
      (a, b) =>
        graph.longestRemainingPath(b) - graph.longestRemainingPath(a) || order.get(a)! - order.get(b)!,
    );
    while (running.length < slots && ready.length > 0) {
      const id = ready.shift()!;
      running.push({ id, end: now + duration(id) });
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    for (const dependent of graph.dependents(next.id)) {
      const left = waiting.get(dependent)! - 1;
      waiting.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  return now;
}

interface Run {
  shape: string;
  concurrency: number;
  resources: number;
  wallMs: number;
  modelBoundMs: number;
  measuredBoundMs: number;
  cpuMsPerResource: number;
  putObjects: number;
  ccCalls: number;
  /** Mean per resource: the executor's durationMs minus the provider call (evaluation, record, state save wait). */
  aroundProviderMs: number;
  /** Deploy start to the first provider call: lock, state read, plan. */
  beforeMs: number;
  /** Last provider call end to deploy return: the last saves, outputs, unlock. */
  afterMs: number;
  /** Time a resource waited, after its last dependency's executor finished, until its provider call began (mean). */
  dispatchMs: number;
  /** Mean provider call (what Cloud Control took, polls included). */
  providerMs: number;
  /** Mean from a resource's start to its provider call: evaluation, name checks, the journal's write-ahead. */
  preCallMs: number;
  /** The state document as stored after the deploy. */
  stateKb: number;
}

interface Bench {
  engine: Engine;
  cleanup: Engine;
  timed: TimedProvider;
  events: DeployEvent[];
  /** When each resource's `started` event arrived (performance.now()). */
  startedAt: Map<string, number>;
  admin: ReturnType<typeof adminApi>;
  backend: StateBackend;
}

export function request(name: string, template: Template): StackRequest {
  return { stateName: name, stackName: name, region: REGION, accountId: ACCOUNT, template };
}

async function measureDeploy(
  bench: Bench,
  shape: Shape,
  concurrency: number,
  req: StackRequest,
): Promise<Run> {
  bench.timed.spans.clear();
  bench.events.length = 0;
  bench.startedAt.clear();
  await bench.admin('DELETE', 'calls');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await bench.engine.deploy(req, { concurrency });
  const ended = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  const calls = await bench.admin<CallsSnapshot>('GET', 'calls');

  const ops = result.plan.operations.filter((op) => op.phase === 'deploy' && op.kind !== 'no-op');
  const spans = bench.timed.spans;
  const executorEnd = new Map<string, number>();
  let aroundSum = 0;
  for (const event of bench.events) {
    if (event.kind !== 'resource' || event.status !== 'succeeded' || event.durationMs === undefined) continue;
    const span = spans.get(event.logicalId);
    if (span) {
      aroundSum += event.durationMs - (span.end - span.start);
      executorEnd.set(event.logicalId, span.start + event.durationMs);
    }
  }
  let preCallSum = 0;
  let preCallCount = 0;
  for (const [id, at] of bench.startedAt) {
    const span = spans.get(id);
    if (!span) continue;
    preCallSum += span.start - at;
    preCallCount += 1;
  }
  const allSpans = [...spans.values()];
  const firstCall = Math.min(...allSpans.map((s) => s.start));
  let dispatchSum = 0;
  for (const op of ops) {
    const span = spans.get(op.logicalId)!;
    const readyAt = Math.max(firstCall, ...op.dependsOn.map((dep) => executorEnd.get(dep) ?? firstCall));
    dispatchSum += span.start - readyAt;
  }
  const providerMs = (id: string) => {
    const span = spans.get(id);
    return span ? span.end - span.start : 0;
  };
  const modelWeights = new Map(ops.map((op) => [op.logicalId, CREATE_MS[op.type] ?? 0]));
  const stored = await bench.backend.store.read({ stackName: req.stateName, region: REGION });
  const count = (key: string) =>
    Object.entries(calls.calls)
      .filter(([name]) => name.startsWith(key))
      .reduce((sum, [, entry]) => sum + entry.count, 0);
  return {
    shape: shape.name,
    concurrency,
    resources: ops.length,
    wallMs: ended - started,
    modelBoundMs: ops.length === 0 ? 0 : idealSchedule(ops, (id) => modelWeights.get(id) ?? 0, concurrency),
    measuredBoundMs: ops.length === 0 ? 0 : idealSchedule(ops, providerMs, concurrency),
    cpuMsPerResource:
      (cpu.user + cpu.system) / 1000 / Math.max(1, Object.keys(req.template.Resources as object).length),
    putObjects: count('s3:PutObject'),
    ccCalls: count('cloudcontrolapi:'),
    aroundProviderMs: ops.length === 0 ? 0 : aroundSum / ops.length,
    beforeMs: allSpans.length === 0 ? 0 : Math.min(...allSpans.map((s) => s.start)) - started,
    afterMs: allSpans.length === 0 ? 0 : ended - Math.max(...allSpans.map((s) => s.end)),
    dispatchMs: ops.length === 0 ? 0 : dispatchSum / ops.length,
    providerMs: ops.length === 0 ? 0 : allSpans.reduce((sum, s) => sum + s.end - s.start, 0) / ops.length,
    preCallMs: preCallCount === 0 ? 0 : preCallSum / preCallCount,
    stateKb: stored ? serializeState(stored.document).length / 1024 : 0,
  };
}

// ---------------------------------------------------------------------------------------
// Output

const secs = (ms: number) => (ms / 1000).toFixed(2);
const conc = (c: number) => (c === UNLIMITED ? 'unl' : String(c));

function printHeader(): void {
  console.log(`Deploy engine benchmark: real engine + Cloud Control provider + AWS SDK against a sandbox
in a child process, latency model per type; provider waits run ${TIME_SCALE}x faster (a poll schedule of
1 s, 1.5 s, 2.25 s ... becomes 100 ms, 150 ms, 225 ms ...), latency-model durations are real ms
(x${TIME_SCALE} = the AWS time they stand for): ${Object.entries(CREATE_MS)
    .map(([type, ms]) => `${type.replace(/^AWS::/, '')} ${ms}`)
    .join(', ')}.

bound = the engine's scheduling rule (start when dependencies finish, <= concurrency at once,
        longest remaining path first) simulated with zero engine time; with unlimited
        concurrency it is the critical path.
  model bound    each resource takes its latency-model create time.
  measured bound each resource takes what its provider call really took in this run (create
                 request, polls, model read-back): Cloud Control's poll quantization (first
                 check after 1 s, then 1.5 s ...) and any slowdown of the endpoint are in it,
                 engine time is not.
  ratio a = wall / model bound     (engine + Cloud Control polling)
  ratio b = wall / measured bound  (the engine alone: slot and dispatch latency, evaluation,
                                    state saves, plan, lock; the goal is <= 1.05)
  cpu/res = this process's CPU (engine + SDK) during the deploy / resources
  prov    = mean provider call (Cloud Control request + polls + read-back)
  around  = mean per resource of the executor's time minus the provider call (evaluate,
            record, wait for its state save)
  dispatch= mean wait from a resource's last dependency finishing to its provider call
            (includes queueing for a slot when concurrency is the limit)
  pre-call= mean from a resource's start (slot taken) to its provider call: evaluation, name
            checks, the journal's write-ahead record
  before / after = deploy start to first provider call (lock, read, plan) / last provider
            call to deploy return (final saves, outputs, unlock); every configuration runs
            after one unmeasured warm-up deploy
  puts    = s3:PutObject per deploy (state saves, coalesced, plus the lock); cc = Cloud Control calls
  state KB= size of the state document after the deploy (every save writes all of it)
`);
  console.log(
    [
      'shape'.padEnd(11),
      'conc'.padStart(4),
      'res'.padStart(4),
      'wall s'.padStart(7),
      'model'.padStart(7),
      'ratio a'.padStart(8),
      'measured'.padStart(9),
      'ratio b'.padStart(8),
      'cpu/res ms'.padStart(11),
      'prov ms'.padStart(8),
      'around ms'.padStart(10),
      'dispatch'.padStart(9),
      'pre-call'.padStart(9),
      'before'.padStart(7),
      'after'.padStart(6),
      'puts'.padStart(5),
      'cc'.padStart(5),
      'state KB'.padStart(9),
    ].join(' '),
  );
}

function printRun(run: Run, label?: string): void {
  const ratio = (bound: number) => (bound > 0 ? (run.wallMs / bound).toFixed(3) : '-');
  console.log(
    [
      run.shape.padEnd(11),
      (label ?? conc(run.concurrency)).padStart(4),
      String(run.resources).padStart(4),
      secs(run.wallMs).padStart(7),
      (run.modelBoundMs > 0 ? secs(run.modelBoundMs) : '-').padStart(7),
      ratio(run.modelBoundMs).padStart(8),
      (run.measuredBoundMs > 0 ? secs(run.measuredBoundMs) : '-').padStart(9),
      ratio(run.measuredBoundMs).padStart(8),
      run.cpuMsPerResource.toFixed(2).padStart(11),
      run.providerMs.toFixed(0).padStart(8),
      run.aroundProviderMs.toFixed(1).padStart(10),
      run.dispatchMs.toFixed(1).padStart(9),
      run.preCallMs.toFixed(1).padStart(9),
      run.beforeMs.toFixed(0).padStart(7),
      run.afterMs.toFixed(0).padStart(6),
      String(run.putObjects).padStart(5),
      String(run.ccCalls).padStart(5),
      run.stateKb.toFixed(0).padStart(9),
    ].join(' '),
  );
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const { url, child } = await startSandboxProcess();
  try {
    Object.assign(process.env, credentialsEnv(), { AWS_ENDPOINT_URL: url });
    delete process.env.AWS_PROFILE;
    const admin = adminApi(url);
    await admin('PUT', 'latency', {
      types: Object.fromEntries(
        Object.entries(CREATE_MS).map(([type, ms]) => [type, { create: ms, update: ms, delete: 0 }]),
      ),
    });
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
    const backend: StateBackend = await openStateBackend(clients, BUCKET, 'cdkd');
    const events: DeployEvent[] = [];
    const startedAt = new Map<string, number>();
    const warn = (message: string) => console.error(`warning: ${message}`);
    const timed = new TimedProvider(new CloudControlProvider({ clock: scaledClock(TIME_SCALE) }));
    const engine = await createEngine({
      backend,
      clients,
      registry: new ProviderRegistry(timed),
      io: eventsTo((event) => {
        if (event.kind === 'resource' && event.status === 'started')
          startedAt.set(event.logicalId, performance.now());
        events.push(event);
      }),
      command: 'deploy',
      retry: providerRetry(warn),
      regions: [REGION],
    });
    const cleanup = await createEngine({
      backend,
      clients,
      registry: new ProviderRegistry(new CloudControlProvider({ clock: scaledClock(CLEANUP_TIME_SCALE) })),
      io: eventsTo(() => {}),
      command: 'deploy',
      retry: providerRetry(warn),
      regions: [REGION],
    });
    const bench: Bench = { engine, cleanup, timed, events, startedAt, admin, backend };

    // 10 is the other tool's default: the engine overhead is reported there and at cdkd's default.
    const all = [4, 8, 10, 16, 32, 64, UNLIMITED];
    const shapes: Shape[] = [
      { name: 'wide', template: wide(500), concurrencies: all },
      // A chain has one resource ready at a time: concurrency cannot matter, so fewer runs.
      { name: 'deep', template: deep(50), concurrencies: [4, 10, 16, DEFAULT_CONCURRENCY, UNLIMITED] },
      { name: 'serverless', template: serverless(9), concurrencies: all },
    ];

    // Optional filters, e.g. `wide:64 deep` (for profiling one configuration).
    const filters = process.argv.slice(2).map((arg) => arg.split(':'));
    const selected = (shape: string, concurrency: number) =>
      filters.length === 0 ||
      filters.some(([name, c]) => name === shape && (c === undefined || c === conc(concurrency)));

    printHeader();
    console.log(
      `(load average at start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs)`,
    );
    // One unmeasured deploy first, so the first configuration does not alone pay for loading and
    // compiling the deploy path (a CLI's start-up is measured by bench/noop-deploy.ts).
    const warmUp = request('bench-warm-up', serverless(1));
    await engine.deploy(warmUp, { concurrency: DEFAULT_CONCURRENCY });
    await cleanup.destroy(warmUp, { concurrency: 64 });
    const runs: Run[] = [];
    for (const shape of shapes) {
      const concurrencies = shape.concurrencies.filter((c) => selected(shape.name, c));
      for (const concurrency of concurrencies) {
        const req = request(`bench-${shape.name}-${conc(concurrency)}`, shape.template);
        const run = await measureDeploy(bench, shape, concurrency, req);
        runs.push(run);
        printRun(run);
        if (concurrency === concurrencies[concurrencies.length - 1]) {
          const noop = await measureDeploy(bench, shape, concurrency, req);
          printRun(noop, 'noop');
        }
        await cleanup.destroy(req, { concurrency: 64 });
      }
    }

    console.log('\nwall time by concurrency (s):');
    const columns = all.map((c) => conc(c).padStart(7)).join('');
    console.log(`${''.padEnd(11)}${columns}`);
    for (const shape of shapes) {
      const cells = all.map((c) => {
        const run = runs.find((r) => r.shape === shape.name && r.concurrency === c);
        return (run ? secs(run.wallMs) : '-').padStart(7);
      });
      console.log(`${shape.name.padEnd(11)}${cells.join('')}`);
    }
    console.log(`\nengine overhead, wall / measured bound (goal <= 1.05):`);
    console.log(`${''.padEnd(11)}${'10'.padStart(7)}${conc(DEFAULT_CONCURRENCY).padStart(7)}`);
    for (const shape of shapes) {
      const cells = [10, DEFAULT_CONCURRENCY].map((c) => {
        const run = runs.find((r) => r.shape === shape.name && r.concurrency === c);
        return (
          run && run.measuredBoundMs > 0 ? (run.wallMs / run.measuredBoundMs).toFixed(3) : '-'
        ).padStart(7);
      });
      console.log(`${shape.name.padEnd(11)}${cells.join('')}`);
    }
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(`\nbench took ${secs(performance.now() - benchStarted)} s`);
  } finally {
    await stopSandboxProcess(child);
  }
}

// Run only when executed, not when bench/sdk-vs-cc.ts imports the shapes and harness.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
