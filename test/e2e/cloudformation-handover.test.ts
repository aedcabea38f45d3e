import { ListExportsCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { useHandover, type Template } from '../helpers/cloudformation-handover.js';
import { liveResources } from '../helpers/inventory.js';

// The hand-over between the sandbox's CloudFormation and cdkd, on the built CLI:
// `cdkd import --migrate-from-cloudformation` and `cdkd export`, their refusals, and a
// SIGKILL at each step followed by a re-run.
const {
  sandbox,
  env,
  cli,
  cfn,
  app,
  pair,
  cfnStatus,
  settled,
  cfnResources,
  createCfnStack,
  recorded,
  managedByOneSide,
} = useHandover();

describe('cdkd import --migrate-from-cloudformation', () => {
  it('takes a CloudFormation stack over, after which cdkd deploy updates it', async () => {
    await createCfnStack('Moving', pair('moving'));
    const before = await cfnResources('Moving');
    const dir = app('Moving', pair('moving'));
    const migrated = await cli(['import', 'Moving', '--migrate-from-cloudformation', '-a', dir]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('the CloudFormation stack is deleted, every resource retained');
    expect(await cfnStatus('Moving')).toBeUndefined();
    const state = await recorded('Moving');
    for (const resource of before) {
      expect(state?.[resource.LogicalResourceId!]?.physicalId).toBe(resource.PhysicalResourceId);
    }
    const live = await liveResources(sandbox.current.url);
    expect(live.map((r) => r.id)).toEqual(expect.arrayContaining(['moving-data', 'moving-jobs']));

    const versioned = app('Moving', pair('moving', { VersioningConfiguration: { Status: 'Enabled' } }));
    const updated = await cli(['deploy', '-a', versioned]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toMatch(/Data \(AWS::S3::Bucket\) updated/);
    const again = await cli(['import', 'Moving', '--migrate-from-cloudformation', '-a', versioned]);
    expect(again.code, again.stderr).toBe(0);
    expect((await cli(['destroy', '-a', versioned, '--yes'])).code).toBe(0);
    expect((await liveResources(sandbox.current.url)).map((r) => r.id)).not.toContain('moving-data');
  });

  it('refuses a stack whose export another CloudFormation stack imports, naming it; --force keeps the export', async () => {
    const exporting: Template = {
      ...pair('shared'),
      Outputs: { JobsName: { Value: { Ref: 'Jobs' }, Export: { Name: 'shared-jobs-url' } } },
    };
    await createCfnStack('Sharing', exporting);
    await createCfnStack('Reading', {
      Resources: {
        Reader: {
          Type: 'AWS::SNS::Topic',
          Properties: { DisplayName: { 'Fn::ImportValue': 'shared-jobs-url' } },
        },
      },
    });
    const dir = app('Sharing', exporting);
    const refused = await cli(['import', 'Sharing', '--migrate-from-cloudformation', '-a', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('MIGRATE_EXPORTS_IMPORTED');
    expect(refused.stderr).toContain('shared-jobs-url (imported by Reading)');
    expect(refused.stderr).toContain('--force');
    expect(await cfnStatus('Sharing')).toBe('CREATE_COMPLETE');
    expect(await recorded('Sharing')).toBeUndefined();

    const forced = await cli(['import', 'Sharing', '--migrate-from-cloudformation', '--force', '-a', dir]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('keeps only its exports');
    expect(forced.stdout).toContain('Reading');
    await managedByOneSide('Sharing', ['Data', 'Jobs']);
    expect((await cfnResources('Sharing')).map((r) => r.LogicalResourceId)).toEqual(['CdkdMigratedExports']);
    const exports = (await cfn().send(new ListExportsCommand({}))).Exports ?? [];
    const state = await recorded('Sharing');
    expect(exports.find((e) => e.Name === 'shared-jobs-url')?.Value).toBe(state?.Jobs?.physicalId);
  });

  it.each([
    ['recording', 'recording'],
    ['retaining', 'setting DeletionPolicy Retain'],
    ['deleting', 'deleting the CloudFormation stack'],
  ])('a SIGKILL while %s, then a re-run: every resource on exactly one side', async (step, marker) => {
    const stackName = `Killed${step}`;
    const template = pair(`killed-${step}`);
    await createCfnStack(stackName, template);
    const dir = app(stackName, template);
    const args = ['import', stackName, '--migrate-from-cloudformation', '-a', dir];
    const run = startCli(args, marker, { env: env() });
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    expect(await liveResources(sandbox.current.url)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: `killed-${step}-data` })]),
    );
    await settled(stackName);
    await cli(['force-unlock', stackName, '--yes']);
    const rerun = await cli(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    await managedByOneSide(stackName, ['Data', 'Jobs']);
    expect(await cfnStatus(stackName)).toBeUndefined();
    const ids = (await liveResources(sandbox.current.url)).map((r) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining([`killed-${step}-data`, expect.stringContaining(`killed-${step}-jobs`)]),
    );
  });
});

describe('cdkd export', () => {
  it('hands a cdkd stack to CloudFormation, which lists the same physical ids; cdkd forgets it', async () => {
    const dir = app('Leaving', pair('leaving'));
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);
    const state = await recorded('Leaving');
    const exported = await cli(['export', 'Leaving']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await cfnStatus('Leaving')).toBe('IMPORT_COMPLETE');
    const listed = await cfnResources('Leaving');
    expect(Object.fromEntries(listed.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]))).toEqual({
      Data: state?.Data?.physicalId,
      Jobs: state?.Jobs?.physicalId,
    });
    expect(await recorded('Leaving')).toBeUndefined();
    const again = await cli(['export', 'Leaving']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already exported');
  });

  it('refuses while a rollback journal exists unless confirmed', async () => {
    const group = (name: string) => ({ Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: name } });
    const first = app('Journaled', { Resources: { One: group('journaled-one') } });
    expect((await cli(['deploy', '-a', first])).code).toBe(0);
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'logs',
        operation: 'CreateLogGroup',
        errorCode: 'InvalidParameterException',
        httpStatus: 400,
        message: 'injected by the test',
        nth: 1,
      }),
    });
    try {
      const second = app('Journaled', {
        Resources: { One: group('journaled-one'), Two: group('journaled-two') },
      });
      const failed = await cli(['deploy', '-a', second, '--no-rollback']);
      expect(failed.code).toBe(1);
    } finally {
      await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    // No terminal and no --yes: the question is refused as every other question is.
    const refused = await cli(['export', 'Journaled']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Stack Journaled has a rollback journal');
    expect(refused.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(await cfnStatus('Journaled')).toBeUndefined();
    expect(await recorded('Journaled')).toBeDefined();

    const confirmed = await cli(['export', 'Journaled', '--yes']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(await recorded('Journaled')).toBeUndefined();
    expect((await cli(['rollback', 'Journaled', '--yes'])).stdout).toContain('no rollback journal');
  });

  it.each([
    ['change-set', 'creating CloudFormation IMPORT change set'],
    ['execute', 'executing change set'],
    ['forget', "removing cdkd's state"],
  ])('a SIGKILL at %s, then a re-run: every resource on exactly one side', async (step, marker) => {
    const stackName = `Leaving${step.replace('-', '')}`;
    const dir = app(stackName, pair(`leaving-${step}`));
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);
    const run = startCli(['export', stackName], marker, { env: env() });
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    await settled(stackName);
    await cli(['force-unlock', stackName, '--yes']);
    const rerun = await cli(['export', stackName]);
    expect(rerun.code, rerun.stderr).toBe(0);
    await managedByOneSide(stackName, ['Data', 'Jobs']);
    expect(await recorded(stackName)).toBeUndefined();
  });
});
