import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { killedQueueDeploy } from '../helpers/killed-deploy.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The journal's tails on the built CLI: a deploy killed with SIGKILL after later creates were
// journaled as tails, settled by cdkd rollback from the journal and its tails together.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

async function keysUnder(prefix: string): Promise<string[]> {
  const { bucket } = JSON.parse((await cli(['state', 'list', '--json'])).stdout);
  const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('a deploy killed after its journal grew tails', () => {
  it('leaves every create it began in the journal and its tails, and cdkd rollback deletes them all', async () => {
    const stackName = 'TailsKilled';
    // Two at a time: the first two share the journal's first write, every later one is a tail.
    await killedQueueDeploy(sandbox.current.url, stackName, { queues: 8, killAfter: 5 });

    const journalPrefix = `cdkd/${stackName}/us-east-1/rollback-journal`;
    expect((await keysUnder(`${journalPrefix}/`)).length).toBeGreaterThan(0);
    expect(await liveResources(sandbox.current.url)).not.toEqual([]);

    expect((await cli(['force-unlock', stackName, '--yes'])).code).toBe(0);
    const rolledBack = await cli(['rollback', stackName, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    expect(await keysUnder(journalPrefix)).toEqual([]);
  });
});
