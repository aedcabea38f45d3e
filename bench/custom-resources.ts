/**
 * Custom resources (not a test): a stack of 20 custom resources served by one Node handler
 * is deployed to a sandbox (a child process, which runs the handler) and destroyed. For each
 * Create it prints the time from cdkd's invoke to cdkd seeing the answer, against the handler's
 * own run time (which the handler reports in its Data), and splits the rest into delivery
 * (invoke to the handler's start: the sandbox's async queue and a cold start) and discovery
 * (the handler's end to cdkd's next poll of the response object).
 * Run: npx tsx bench/custom-resources.ts            (about 10 seconds)
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../src/aws/client-factory.js';
import { createEngine } from '../src/engine/engine.js';
import { awsTransport } from '../src/providers/custom-resource/aws-transport.js';
import { CustomResourceProvider } from '../src/providers/custom-resource/index.js';
import { systemClock } from '../src/providers/clock.js';
import { CloudControlProvider } from '../src/providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../src/providers/registry.js';
import { registerSdkProviders } from '../src/providers/sdk-providers.js';
import { openStateBackend } from '../src/state/state-backend.js';
import { customResourceStack } from '../test/engine/custom-resource-handler.js';
import { BUCKET, credentialsEnv, request, startSandboxProcess, stopSandboxProcess } from './deploy-engine.js';
import { eventsTo } from '../test/helpers/recording-io-host.js';

const COUNT = 20;
/** The handler's own work per request, so its run time is not all process start-up. */
const WORK_MS = 200;

const HANDLER = `
const http = require('http');
exports.handler = async (event) => {
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, ${WORK_MS}));
  const body = JSON.stringify({
    Status: 'SUCCESS', PhysicalResourceId: event.LogicalResourceId, StackId: event.StackId,
    RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId,
    Data: { Started: String(started), Ended: String(Date.now()) },
  });
  const target = new URL(event.ResponseURL);
  await new Promise((resolve, reject) => {
    const put = http.request(target, { method: 'PUT', headers: { 'content-length': Buffer.byteLength(body) } }, (r) => { r.resume(); r.on('end', resolve); });
    put.on('error', reject);
    put.end(body);
  });
};
`;

function template() {
  const base = customResourceStack('unused', { Name: 'Thing0' });
  const handler = base.Handler as { Properties: { Code: { ZipFile: string } } };
  handler.Properties.Code.ZipFile = HANDLER;
  const things = Object.fromEntries(
    Array.from({ length: COUNT }, (_, i) => [
      `Thing${i}`,
      { Type: 'Custom::Bench', Properties: { ServiceToken: { 'Fn::GetAtt': ['Handler', 'Arn'] }, Index: i } },
    ]),
  );
  return { Resources: { Role: base.Role, Handler: base.Handler, ...things } };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  Object.assign(process.env, credentialsEnv(), { AWS_ENDPOINT_URL: sandbox.url });
  try {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
    const invokedAt = new Map<string, number>();
    const seenAt = new Map<string, number>();
    const transport = awsTransport(clients, systemClock);
    const provider = new CustomResourceProvider({
      transport: () => ({
        ready: transport.ready,
        async send(target, payload, signal) {
          await transport.send(target, payload, signal);
          invokedAt.set((JSON.parse(payload) as { LogicalResourceId: string }).LogicalResourceId, Date.now());
        },
      }),
    });
    // Registered first, so it serves custom types before the default one registerSdkProviders adds.
    const registry = registerSdkProviders(
      new ProviderRegistry(new CloudControlProvider()).registerSdkFamily(provider),
    );
    const engine = await createEngine({
      backend: await openStateBackend(clients, BUCKET, 'cdkd'),
      clients,
      registry,
      io: eventsTo((event) => {
        if (event.kind === 'resource' && event.status === 'succeeded' && event.type === 'Custom::Bench')
          seenAt.set(event.logicalId, Date.now());
      }),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const stack = request('CustomResourceBench', template() as never);
    const started = Date.now();
    const result = await engine.deploy(stack, { concurrency: 32 });
    const wall = Date.now() - started;
    const state = await (
      await openStateBackend(clients, BUCKET, 'cdkd')
    ).store.read({
      stackName: stack.stateName,
      region: stack.region,
    });
    const rows = Object.entries(state!.document.resources)
      .filter(([, record]) => record.type === 'Custom::Bench')
      .map(([id, record]) => {
        const handlerStart = Number(record.attributes.Started);
        const handlerEnd = Number(record.attributes.Ended);
        const invoked = invokedAt.get(id)!;
        const seen = seenAt.get(id)!;
        return {
          total: seen - invoked,
          handler: handlerEnd - handlerStart,
          delivery: handlerStart - invoked,
          discovery: seen - handlerEnd,
        };
      });
    console.log(
      `${COUNT} custom resources, deployed in ${wall} ms (${result.plan.operations.length} operations)`,
    );
    console.log('                         median       max');
    for (const key of ['total', 'handler', 'delivery', 'discovery'] as const) {
      const values = rows.map((row) => row[key]);
      const label = {
        total: 'invoke to answer seen',
        handler: "handler's own run time",
        delivery: 'invoke to handler start',
        discovery: 'handler end to seen',
      }[key];
      console.log(`${label.padEnd(24)} ${fmt(median(values))} ${fmt(Math.max(...values))}`);
    }
    const overhead = median(rows.map((row) => row.total / row.handler));
    console.log(`invoke-to-seen over handler time (median ratio): ${overhead.toFixed(2)}x`);
    await engine.destroy(stack, { concurrency: 32 });
  } finally {
    await stopSandboxProcess(sandbox.child);
  }
}

await main();
