import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { runCli } from './cli.js';
import { sandboxEnv, type useSandbox } from './sandbox.js';

/**
 * Several accounts on one sandbox (a 12-digit access key id selects the account): the
 * environment, the CLI and SDK client settings acting as one of them, and what the tests of
 * cross-account routes read back (a queue's URL, a bucket's keys).
 */
export function sandboxAccounts(sandbox: ReturnType<typeof useSandbox>) {
  const as = (account: string, extra: Record<string, string> = {}) => ({
    ...sandboxEnv(sandbox.current.url),
    AWS_ACCESS_KEY_ID: account,
    ...extra,
  });
  const cli = (account: string, ...args: string[]) => runCli(args, { env: as(account) });
  const clientConfig = (account: string, region: string) => ({
    endpoint: sandbox.current.url,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: account, secretAccessKey: 'sandbox-secret' },
  });

  /** The queue's URL, which names the account it was made in; undefined when there is none. */
  async function queueUrl(account: string, region: string, name: string): Promise<string | undefined> {
    const sqsClient = new SQSClient(clientConfig(account, region));
    try {
      return (await sqsClient.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
    } catch {
      return undefined;
    } finally {
      sqsClient.destroy();
    }
  }
  const queueExists = async (account: string, region: string, name: string) =>
    (await queueUrl(account, region, name)) !== undefined;

  async function keysIn(account: string, bucket: string, region = 'us-east-1'): Promise<string[]> {
    const s3 = new S3Client(clientConfig(account, region));
    try {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!);
    } catch {
      return [];
    } finally {
      s3.destroy();
    }
  }
  return { as, cli, clientConfig, queueUrl, queueExists, keysIn };
}
