import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../src/errors.js';
import {
  containerName,
  containerRunCommand,
  findContainerEngine,
} from '../../src/local/service/engine-command.js';
import type { ServiceContainer } from '../../src/local/service/service-model.js';

const base: ServiceContainer = {
  name: 'web',
  image: { kind: 'registry', image: 'nginx' },
  essential: true,
  stopTimeoutSeconds: 30,
  environment: {},
  secrets: [],
  portMappings: [],
};

describe('the engine run command of a task container', () => {
  it.each<[string, Partial<ServiceContainer>, Partial<Parameters<typeof containerRunCommand>[0]>, string[]]>([
    ['a bare container', {}, {}, ['run', '--rm', '--name', 'c1', 'img']],
    [
      'ports on the loopback, host:container/protocol',
      {},
      {
        ports: [
          { containerPort: 8080, hostPort: 8080, protocol: 'tcp' },
          { containerPort: 53, hostPort: 5353, protocol: 'udp' },
        ],
      },
      ['run', '--rm', '--name', 'c1', '-p', '127.0.0.1:8080:8080/tcp', '-p', '127.0.0.1:5353:53/udp', 'img'],
    ],
    [
      "a later container joins the first one's network instead of publishing",
      {},
      { networkOf: 'c0', ports: [{ containerPort: 80, hostPort: 80, protocol: 'tcp' }] },
      ['run', '--rm', '--name', 'c1', '--network', 'container:c0', 'img'],
    ],
    [
      'variables and secrets by name only, sorted',
      { environment: { MODE: 'local', A: '1' } },
      { secretValues: { TOKEN: 's3cret' } },
      ['run', '--rm', '--name', 'c1', '-e', 'A', '-e', 'MODE', '-e', 'TOKEN', 'img'],
    ],
    [
      'the command after the image',
      { command: ['serve', '--port', '8080'] },
      {},
      ['run', '--rm', '--name', 'c1', 'img', 'serve', '--port', '8080'],
    ],
    [
      "the entry point's first word as --entrypoint, the rest before the command",
      { entryPoint: ['sh', '-c'], command: ['echo hi'] },
      {},
      ['run', '--rm', '--name', 'c1', '--entrypoint', 'sh', 'img', '-c', 'echo hi'],
    ],
    [
      'working directory and user',
      { workingDirectory: '/app', user: '1000' },
      {},
      ['run', '--rm', '--name', 'c1', '-w', '/app', '-u', '1000', 'img'],
    ],
  ])('%s', (_, container, input, args) => {
    const command = containerRunCommand({
      container: { ...base, ...container },
      image: 'img',
      name: 'c1',
      ports: [],
      secretValues: {},
      ...input,
    });
    expect(command.args).toEqual(args);
  });

  it('hands the values to the engine in its environment, never in its arguments', () => {
    const command = containerRunCommand({
      container: { ...base, environment: { MODE: 'local' } },
      image: 'img',
      name: 'c1',
      ports: [],
      secretValues: { TOKEN: 's3cret' },
    });
    expect(command.env).toEqual({ MODE: 'local', TOKEN: 's3cret' });
    expect(command.args.join(' ')).not.toMatch(/s3cret|local/);
  });

  it('names containers as the engine accepts them', () => {
    expect(containerName('Stage/Svc', 'Web', 'web app', 42, 3)).toBe('cdkd-Stage-Svc-Web-web-app-42-3');
  });
});

describe('the container engine', () => {
  it.each<[string, Record<string, string>, string[], string | RegExp]>([
    ['CDK_DOCKER when it is on the PATH', { CDK_DOCKER: 'finch' }, ['finch', 'docker'], 'finch'],
    ['docker first', {}, ['docker', 'podman'], 'docker'],
    ['podman without docker', {}, ['podman'], 'podman'],
    [
      'CDK_DOCKER not on the PATH is named',
      { CDK_DOCKER: 'finch' },
      ['docker'],
      /CDK_DOCKER names the container engine "finch"/,
    ],
    ['none at all', {}, [], /neither docker nor podman is on the PATH/],
  ])('%s', (_, env, onPath, expected) => {
    const find = () => findContainerEngine(env, (program) => onPath.includes(program));
    if (typeof expected === 'string') {
      expect(find()).toBe(expected);
      return;
    }
    let error: unknown;
    try {
      find();
    } catch (caught) {
      error = caught;
    }
    expect(isCdkdError(error) && error.code).toBe('LOCAL_CONTAINER_ENGINE_MISSING');
    expect((error as Error).message).toMatch(expected);
  });
});
