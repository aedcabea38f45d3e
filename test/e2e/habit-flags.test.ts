import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });

/** The CDK CLI's flags people type from habit: accepted, and cdkd says what it does instead. */
describe('flags typed from the CDK CLI', () => {
  let app: string;
  beforeAll(async () => {
    app = tempDir();
    writeAssembly(app, [
      { id: 'Base', template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } } },
      { id: 'Top', template: { Resources: { T: { Type: 'AWS::SNS::Topic' } } }, dependencies: ['Base'] },
    ]);
    expect((await cli(['bootstrap'])).code).toBe(0);
  }, 120_000);

  it('deploy --method and --hotswap run an ordinary deploy, with a note saying so', async () => {
    const result = await cli(['deploy', '--all', '-a', app, '--method', 'change-set', '--hotswap']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Note: --method change-set is ignored: cdkd makes no change set');
    expect(result.stderr).toContain(
      'Note: --hotswap: cdkd needs no hotswap; this is an ordinary cdkd deploy',
    );
    const plain = await cli(['deploy', '--all', '-a', app]);
    expect(plain.stderr).not.toContain('Note: --');
  });

  it('synth -e and destroy -e act on the named stack alone', async () => {
    const synth = await cli(['synth', 'Top', '-e', '-a', app]);
    expect(synth.code, synth.stderr).toBe(0);
    expect(synth.stdout).toContain('AWS::SNS::Topic');
    expect(synth.stdout).not.toContain('AWS::SQS::Queue');
    const destroyed = await cli(['destroy', 'Top', '-e', '-a', app, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    const left = await cli(['state', 'list']);
    expect(left.stdout).toContain('Base');
    expect(left.stdout).not.toContain('Top');
  });

  it('deploy --force writes the recorded properties back where AWS holds others; --dry-run only names them', async () => {
    const repairApp = tempDir();
    writeAssembly(repairApp, [
      {
        id: 'Repair',
        template: { Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } } },
      },
    ]);
    expect((await cli(['deploy', '-a', repairApp])).code).toBe(0);
    const state = JSON.parse((await cli(['state', 'show', 'Repair', '--json'])).stdout);
    const QueueUrl = state.resources.Q.physicalId as string;
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    const timeout = async () =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['VisibilityTimeout'] })))
        .Attributes?.VisibilityTimeout;
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: { VisibilityTimeout: '99' } }));

    expect((await cli(['deploy', '-a', repairApp])).code).toBe(0);
    expect(await timeout()).toBe('99');
    const dryRun = await cli(['deploy', '-a', repairApp, '--force', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toContain('Repair: --force would re-apply Q (AWS::SQS::Queue): VisibilityTimeout.');
    expect(await timeout()).toBe('99');
    const forced = await cli(['deploy', '-a', repairApp, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Repair: --force re-applied Q (AWS::SQS::Queue): VisibilityTimeout.');
    expect(await timeout()).toBe('30');
    const again = await cli(['deploy', '-a', repairApp, '--force']);
    expect(again.stderr).toContain('Repair: --force found every resource as recorded');
    expect((await cli(['destroy', '-a', repairApp, '--yes'])).code).toBe(0);
  });
});
