import { describe, expect, it } from 'vitest';
import {
  buildArguments,
  localImageTag,
  loginArguments,
  pushArguments,
  type BuildOptions,
} from '../../../src/assets/container/build-arguments.js';

const TAG = 'cdkasset-abc';

describe('buildArguments', () => {
  // One row per manifest option: the flags it adds between `build` and the context `.`.
  const rows: Array<[string, BuildOptions, string[]]> = [
    ['nothing set', {}, ['--tag', TAG]],
    [
      'build args',
      { dockerBuildArgs: { A: '1', B: 'x=y' } },
      ['--build-arg', 'A=1', '--build-arg', 'B=x=y', '--tag', TAG],
    ],
    [
      'build secrets',
      { dockerBuildSecrets: { npmrc: 'src=/home/me/.npmrc', token: 'env=TOKEN' } },
      ['--secret', 'id=npmrc,src=/home/me/.npmrc', '--secret', 'id=token,env=TOKEN', '--tag', TAG],
    ],
    ['ssh', { dockerBuildSsh: 'default' }, ['--ssh', 'default', '--tag', TAG]],
    ['target', { dockerBuildTarget: 'runtime' }, ['--tag', TAG, '--target', 'runtime']],
    ['file', { dockerFile: 'docker/Dockerfile.prod' }, ['--tag', TAG, '--file', 'docker/Dockerfile.prod']],
    ['network', { networkMode: 'host' }, ['--tag', TAG, '--network', 'host']],
    ['platform', { platform: 'linux/arm64' }, ['--tag', TAG, '--platform', 'linux/arm64']],
    [
      'outputs',
      { dockerOutputs: ['type=docker', 'type=local,dest=out'] },
      ['--tag', TAG, '--output=type=docker', '--output=type=local,dest=out'],
    ],
    [
      'cache from',
      { cacheFrom: [{ type: 'registry', params: { ref: 'r:cache' } }, { type: 'gha' }] },
      ['--tag', TAG, '--cache-from', 'type=registry,ref=r:cache', '--cache-from', 'type=gha'],
    ],
    [
      'cache to',
      { cacheTo: { type: 'registry', params: { ref: 'r:cache', mode: 'max' } } },
      ['--tag', TAG, '--cache-to', 'type=registry,ref=r:cache,mode=max'],
    ],
    ['cache disabled', { cacheDisabled: true }, ['--tag', TAG, '--no-cache']],
    ['cache disabled false', { cacheDisabled: false }, ['--tag', TAG]],
    [
      'build contexts',
      { dockerBuildContexts: { base: '../base', alpine: 'docker-image://alpine' } },
      ['--tag', TAG, '--build-context', 'base=../base', '--build-context', 'alpine=docker-image://alpine'],
    ],
  ];
  it.each(rows)('%s', (_name, options, flags) => {
    expect(buildArguments(options, TAG)).toEqual(['build', ...flags, '.']);
  });

  it('keeps the CDK CLI order when every option is set', () => {
    const args = buildArguments(
      {
        dockerBuildArgs: { A: '1' },
        dockerBuildSecrets: { s: 'src=f' },
        dockerBuildSsh: 'default',
        dockerBuildTarget: 't',
        dockerFile: 'F',
        networkMode: 'none',
        platform: 'linux/amd64',
        dockerOutputs: ['type=docker'],
        cacheFrom: [{ type: 'local', params: { src: 'c' } }],
        cacheTo: { type: 'local', params: { dest: 'c' } },
        cacheDisabled: true,
        dockerBuildContexts: { b: 'x' },
      },
      TAG,
    );
    expect(args).toEqual([
      'build',
      '--build-arg',
      'A=1',
      '--secret',
      'id=s,src=f',
      '--ssh',
      'default',
      '--tag',
      TAG,
      '--target',
      't',
      '--file',
      'F',
      '--network',
      'none',
      '--platform',
      'linux/amd64',
      '--output=type=docker',
      '--cache-from',
      'type=local,src=c',
      '--cache-to',
      'type=local,dest=c',
      '--no-cache',
      '--build-context',
      'b=x',
      '.',
    ]);
  });
});

describe('registry arguments', () => {
  const rows: Array<[string, string, boolean, string[]]> = [
    ['docker, https', 'docker', true, []],
    ['docker, plain http', 'docker', false, []],
    ['podman, https', 'podman', true, []],
    ['podman, plain http', 'podman', false, ['--tls-verify=false']],
    ['podman by path, plain http', '/usr/bin/podman', false, ['--tls-verify=false']],
    ['finch, plain http', 'finch', false, []],
  ];
  it.each(rows)('%s', (_name, cli, secure, tls) => {
    expect(loginArguments(cli, { host: 'r:1', secure }, 'AWS')).toEqual([
      'login',
      ...tls,
      '--username',
      'AWS',
      '--password-stdin',
      'r:1',
    ]);
    expect(pushArguments(cli, { secure }, 'r:1/repo:tag')).toEqual(['push', ...tls, 'r:1/repo:tag']);
  });

  it('tags a build in lower case, as image references require', () => {
    expect(localImageTag('ABCdef')).toBe('cdkasset-abcdef');
  });
});
