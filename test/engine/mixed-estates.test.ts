import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { liveResources } from '../helpers/inventory.js';
import { REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';
import { settled, ssmParameter, template } from '../sandbox/cloudformation-helpers.js';

/**
 * Mixed estates: some stacks on CloudFormation (made here through the sandbox's CloudFormation
 * API), some on cdkd. A cdkd stack imports what CloudFormation exports, and keeps what a
 * CloudFormation stack imports, as CloudFormation would.
 */
const sandbox = useSandboxEngine('mixed-estates-state');

const cfn = () => sandbox.clients.client(CloudFormationClient, REGION);

/** Creates a CloudFormation stack from `resources` (+ outputs) and waits for CREATE_COMPLETE. */
async function cloudFormationStack(
  stackName: string,
  resources: Record<string, unknown>,
  outputs: Record<string, unknown> = {},
) {
  const client = await cfn();
  await client.send(
    new CreateStackCommand({ StackName: stackName, TemplateBody: template(resources, { Outputs: outputs }) }),
  );
  expect((await settled(client, stackName)).StackStatus).toBe('CREATE_COMPLETE');
}

const exported = (entries: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(entries).map(([name, value], i) => [`Out${i}`, { Value: value, Export: { Name: name } }]),
  );

/** Deploys (or with `dryRun`, plans) the template of `resources` and `outputs` as `stackName`. */
async function deploy(
  stackName: string,
  resources: Record<string, unknown>,
  outputs: Record<string, unknown> = {},
  dryRun = false,
) {
  return (await sandbox.engine()).deploy(
    { ...stackIdentity(stackName), template: { Resources: resources, Outputs: outputs } },
    { concurrency: 4, dryRun },
  );
}

async function failing(run: Promise<unknown>) {
  return failureOf(
    await run.then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
}

async function parameterValue(name: string): Promise<string | undefined> {
  const ssm = await sandbox.clients.client(SSMClient, REGION);
  return (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
}

async function calls(): Promise<Record<string, unknown>> {
  return ((await (await fetch(`${sandbox.url}/_sandbox/calls`)).json()) as { calls: Record<string, unknown> })
    .calls;
}

const resetCalls = () => fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });

const state = async (stackName: string) =>
  (await sandbox.backend.store.read({ stackName, region: REGION }))?.document;

describe('a cdkd stack importing an export of a stack still on CloudFormation', () => {
  it('resolves the export from ListExports, records the import and names its source in the plan', async () => {
    await cloudFormationStack(
      'CfnProducer',
      { Source: ssmParameter('/mixed/source', 'from-cloudformation') },
      exported({ 'cfn-shared': { 'Fn::GetAtt': ['Source', 'Value'] } }),
    );
    await resetCalls();
    const result = await deploy('CdkdConsumer', {
      Copy: ssmParameter('/mixed/copy', { 'Fn::ImportValue': 'cfn-shared' }),
    });
    expect(await parameterValue('/mixed/copy')).toBe('from-cloudformation');
    expect((await state('CdkdConsumer'))?.imports).toEqual(['cfn-shared']);
    expect(result.plan.imports).toEqual([
      { exportName: 'cfn-shared', side: 'cloudformation', stackName: 'CfnProducer' },
    ]);
    // One read of CloudFormation's exports for the whole deploy, however often the template asks.
    expect(await calls()).toMatchObject({ 'cloudformation:ListExports': { count: 1 } });
  });

  it('reads every page of ListExports', async () => {
    // The sandbox answers 100 exports a page, as CloudFormation does: the 120th is on the second.
    const names = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`paged-${i}`, `value-${i}`]));
    await cloudFormationStack(
      'CfnManyExports',
      { Holder: ssmParameter('/mixed/holder', 'x') },
      exported(names),
    );
    await resetCalls();
    await deploy('CdkdPagedConsumer', {
      Copy: ssmParameter('/mixed/paged', { 'Fn::ImportValue': 'paged-119' }),
    });
    expect(await parameterValue('/mixed/paged')).toBe('value-119');
    expect(await calls()).toMatchObject({ 'cloudformation:ListExports': { count: 2 } });
  });

  it('an import by a computed name (Fn::Join) reads CloudFormation too', async () => {
    await deploy('CdkdJoinConsumer', {
      Copy: ssmParameter('/mixed/join', { 'Fn::ImportValue': { 'Fn::Join': ['-', ['cfn', 'shared']] } }),
    });
    expect(await parameterValue('/mixed/join')).toBe('from-cloudformation');
  });

  it('asks CloudFormation nothing when every import is a cdkd export, or the stack imports nothing', async () => {
    await deploy(
      'OwnProducer',
      { Source: ssmParameter('/mixed/own', 'own-value') },
      exported({ 'own-shared': 'own-value' }),
    );
    await resetCalls();
    await deploy('OwnConsumer', {
      Copy: ssmParameter('/mixed/own-copy', { 'Fn::ImportValue': 'own-shared' }),
    });
    await deploy('NoImports', { Plain: ssmParameter('/mixed/plain', 'plain') });
    await deploy(
      'OwnConsumer',
      { Copy: ssmParameter('/mixed/own-copy', { 'Fn::ImportValue': 'own-shared' }) },
      {},
      true,
    );
    expect(await parameterValue('/mixed/own-copy')).toBe('own-value');
    expect(Object.keys(await calls()).filter((call) => call.startsWith('cloudformation:'))).toEqual([]);
  });

  it('an export name both a cdkd stack and a CloudFormation stack export is refused, naming both', async () => {
    await deploy(
      'OwnDup',
      { Source: ssmParameter('/mixed/own-dup', 'cdkd-copy') },
      exported({ 'dup-name': 'cdkd-copy' }),
    );
    // CloudFormation cannot see cdkd's exports, so it lets a stack export the same name.
    await cloudFormationStack(
      'CfnDup',
      { Source: ssmParameter('/mixed/cfn-dup', 'cfn-copy') },
      exported({ 'dup-name': 'cfn-copy' }),
    );
    const before = await liveResources(sandbox.url);
    const failure = await failing(
      deploy('DupConsumer', {
        Copy: ssmParameter('/mixed/dup-copy', { 'Fn::ImportValue': 'dup-name' }),
        Other: ssmParameter('/mixed/dup-other', { 'Fn::ImportValue': 'cfn-shared' }),
      }),
    );
    expect(failure.codes).toEqual(['EXPORT_NAME_AMBIGUOUS']);
    expect(failure.message).toContain(
      'dup-name (exported by cdkd stack OwnDup and by CloudFormation stack CfnDup)',
    );
    expect(failure.hint).toContain('remove or rename the export in one of the two stacks');
    expect(await liveResources(sandbox.url)).toEqual(before);
    expect(await state('DupConsumer')).toBeUndefined();
  });

  it('a cdkd stack may not start exporting a name a CloudFormation stack exports', async () => {
    const failure = await failing(
      deploy('NewExporter', { Source: ssmParameter('/mixed/new', 'x') }, exported({ 'cfn-shared': 'x' })),
    );
    expect(failure.codes).toEqual(['EXPORT_NAME_TAKEN']);
    expect(failure.message).toContain('cfn-shared (by CloudFormation stack CfnProducer)');
    expect(await state('NewExporter')).toBeUndefined();
  });
});

describe('an export of a cdkd stack that a CloudFormation stack imports', () => {
  // On AWS a CloudFormation stack reads only CloudFormation's exports, so it imports a name a
  // cdkd stack exports when CloudFormation holds that name too (a stack in the middle of a hand-over).
  const producer = (value: string, outputs: Record<string, unknown>) =>
    deploy('HandedProducer', { Source: ssmParameter('/mixed/handed', value) }, outputs);

  it('is not removed, changed, or destroyed with its stack; nothing is touched', async () => {
    await producer('v1', exported({ 'handed-over': 'v1', 'free-export': 'f1' }));
    await cloudFormationStack(
      'CfnMirror',
      { Mirror: ssmParameter('/mixed/mirror', 'v1') },
      exported({ 'handed-over': 'v1' }),
    );
    await cloudFormationStack('CfnImporter', {
      Reader: ssmParameter('/mixed/reader', { 'Fn::ImportValue': 'handed-over' }),
    });
    const before = await state('HandedProducer');
    const live = await liveResources(sandbox.url);

    const removed = await failing(producer('v2', exported({ 'free-export': 'f1' })));
    expect(removed.codes).toEqual(['EXPORT_IN_USE']);
    expect(removed.message).toContain(
      'Export handed-over cannot be deleted as it is in use by CloudFormation stack CfnImporter',
    );
    expect(removed.hint).toContain('stop importing the export');

    const changed = await failing(producer('v2', exported({ 'handed-over': 'v2', 'free-export': 'f1' })));
    expect(changed.codes).toEqual(['EXPORT_IN_USE']);
    expect(changed.message).toContain(
      'Export handed-over cannot be updated as it is in use by CloudFormation stack CfnImporter',
    );

    const destroyed = await failing(
      (await sandbox.engine()).destroy(stackIdentity('HandedProducer'), { concurrency: 4 }),
    );
    expect(destroyed.codes).toEqual(['EXPORT_IN_USE']);
    expect(destroyed.message).toContain('handed-over (imported by CloudFormation stack CfnImporter)');

    expect(await state('HandedProducer')).toEqual(before);
    expect(
      await sandbox.backend.journals.read({ stackName: 'HandedProducer', region: REGION }),
    ).toBeUndefined();
    expect(await liveResources(sandbox.url)).toEqual(live);
    expect(await parameterValue('/mixed/handed')).toBe('v1');
  });

  it('asks ListImports only for the exports a deploy removes or changes', async () => {
    await resetCalls();
    // The export nobody imports changes; the imported one stays as it is.
    await producer('v1', exported({ 'handed-over': 'v1', 'free-export': 'f2' }));
    expect(await calls()).toMatchObject({ 'cloudformation:ListImports': { count: 1 } });
    await resetCalls();
    await producer('v1', exported({ 'handed-over': 'v1', 'free-export': 'f2' }));
    expect(Object.keys(await calls()).filter((call) => call.startsWith('cloudformation:'))).toEqual([]);
  });
});
