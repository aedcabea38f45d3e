import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAssembly } from '../../src/assembly/read-assembly.js';
import { tempDir, writeAssembly, writeJson } from './helpers.js';

describe('readAssembly', () => {
  it('reads stacks: names, environment, template, tags, termination protection, dependencies', () => {
    const dir = writeAssembly(tempDir(), [
      {
        id: 'Base',
        environment: 'aws://123456789012/eu-west-1',
        tags: { team: 'a' },
        terminationProtection: true,
      },
      {
        id: 'App',
        stackName: 'app-prod',
        dependencies: ['Base'],
        template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } },
      },
    ]);
    const assembly = readAssembly(dir);
    expect(assembly.version).toBe('55.0.0');
    const [base, app] = assembly.stacks;
    expect(base).toMatchObject({
      stackName: 'Base',
      displayName: 'Base',
      topLevel: true,
      environment: { account: '123456789012', region: 'eu-west-1', name: 'aws://123456789012/eu-west-1' },
      tags: { team: 'a' },
      terminationProtection: true,
    });
    expect(app).toMatchObject({
      stackName: 'app-prod',
      displayName: 'App',
      dependencies: ['Base'],
      environment: { account: 'unknown-account', region: 'unknown-region' },
      template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } },
      templateFile: join(dir, 'App.template.json'),
    });
  });

  it('reads Stage assemblies with their display paths', () => {
    const root = tempDir();
    writeAssembly(join(root, 'assembly-Prod'), [{ id: 'ProdApi', displayName: 'Prod/Api' }]);
    writeAssembly(root, [{ id: 'Top' }], {
      nested: { 'assembly-Prod': { directoryName: 'assembly-Prod', displayName: 'Prod' } },
    });
    const stacks = readAssembly(root).stacks;
    expect(stacks.map((s) => [s.displayName, s.topLevel, s.assemblyDir])).toEqual([
      ['Top', true, root],
      ['Prod/Api', false, join(root, 'assembly-Prod')],
    ]);
  });

  it('reads annotations from the manifest and from the additional metadata file', () => {
    const dir = writeAssembly(tempDir(), [
      { id: 'A', metadata: { '/A/Bucket': [{ type: 'aws:cdk:warning', data: 'inline warning' }] } },
    ]);
    const manifestPath = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.artifacts.A.additionalMetadataFile = 'A.metadata.json';
    writeJson(manifestPath, manifest);
    writeJson(join(dir, 'A.metadata.json'), {
      '/A/Queue': [
        { type: 'aws:cdk:error', data: 'file error' },
        { type: 'aws:cdk:logicalId', data: 'Queue123' },
      ],
    });
    expect(readAssembly(dir).stacks[0]?.annotations).toEqual([
      { level: 'warning', stack: 'A', path: '/A/Bucket', message: 'inline warning' },
      { level: 'error', stack: 'A', path: '/A/Queue', message: 'file error' },
    ]);
  });

  it('reads file and container assets of a stack', () => {
    const dir = writeAssembly(tempDir(), [
      {
        id: 'A',
        assets: {
          files: {
            abc: {
              displayName: 'Fn/Code',
              source: { path: 'asset.abc', packaging: 'zip' },
              destinations: { d1: { bucketName: 'bucket', objectKey: 'abc.zip', region: 'us-east-1' } },
            },
          },
          dockerImages: {
            def: {
              source: { directory: 'asset.def', dockerFile: 'Dockerfile' },
              destinations: { d2: { repositoryName: 'repo', imageTag: 'def', region: 'us-east-1' } },
            },
          },
        },
      },
    ]);
    const [manifest] = readAssembly(dir).stacks[0]?.assetManifests ?? [];
    expect(manifest?.file).toBe(join(dir, 'A.assets.json'));
    expect(manifest?.files).toEqual([
      {
        hash: 'abc',
        displayName: 'Fn/Code',
        sourcePath: 'asset.abc',
        absoluteSourcePath: join(dir, 'asset.abc'),
        packaging: 'zip',
        destinations: [{ id: 'd1', bucketName: 'bucket', objectKey: 'abc.zip', region: 'us-east-1' }],
      },
    ]);
    expect(manifest?.containers).toEqual([
      {
        hash: 'def',
        directory: 'asset.def',
        absoluteDirectory: join(dir, 'asset.def'),
        dockerFile: 'Dockerfile',
        destinations: [{ id: 'd2', repositoryName: 'repo', imageTag: 'def', region: 'us-east-1' }],
      },
    ]);
  });

  it('refuses a manifest written by a newer CDK, naming both schema versions', () => {
    const dir = writeAssembly(tempDir(), [{ id: 'A' }]);
    writeJson(join(dir, 'manifest.json'), { version: '99.0.0', artifacts: {} });
    expect(() => readAssembly(dir)).toThrow(
      expect.objectContaining({
        code: 'ASSEMBLY_VERSION_UNSUPPORTED',
        message: expect.stringMatching(/newer CDK \(schema 99\.0\.0, cdkd reads up to 55\.0\.0\)/),
        hint: expect.stringContaining('Upgrade cdkd'),
      }),
    );
  });

  it.each([
    { name: 'invalid JSON', content: '{"version": "55.0.0", "artifacts": {' },
    { name: 'no version', content: '{"artifacts": {}}' },
  ])('refuses a malformed manifest ($name) without quoting it', ({ content }) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'manifest.json'), content);
    let error: unknown;
    try {
      readAssembly(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'ASSEMBLY_MALFORMED' });
    expect((error as Error).message).not.toContain('"artifacts"');
  });

  it('refuses a stack whose template file is missing', () => {
    const dir = writeAssembly(tempDir(), [{ id: 'A' }]);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.artifacts.A.properties.templateFile = 'gone.json';
    writeJson(join(dir, 'manifest.json'), manifest);
    expect(() => readAssembly(dir)).toThrow(expect.objectContaining({ code: 'ASSEMBLY_MALFORMED' }));
  });
});
