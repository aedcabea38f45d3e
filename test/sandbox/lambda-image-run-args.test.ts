import { describe, expect, it } from 'vitest';
import { imageRunArgs, pullFiles } from '../../src/sandbox/services/lambda/runtime/image/image-engine.js';

const base = {
  image: '127.0.0.1:4710/fns/app@sha256:abc',
  name: 'cdkd-lambda-f-1',
  sandboxPid: 4242,
  environment: { B: 'secret', A: '1' },
  imageCommand: ['from-image'],
};
const prefix = [
  'run',
  '--rm',
  '--name',
  'cdkd-lambda-f-1',
  '--label',
  'cdkd.sandbox-pid=4242',
  '--network',
  'host',
  '-e',
  'A',
  '-e',
  'B',
];

describe('the engine run of an image function', () => {
  it.each([
    ['no ImageConfig: the image ENTRYPOINT and CMD', {}, [...prefix, base.image]],
    ['Command replaces CMD', { Command: ['a', 'b'] }, [...prefix, base.image, 'a', 'b']],
    [
      "EntryPoint replaces ENTRYPOINT, keeping the image's CMD",
      { EntryPoint: ['/bin/sh', '-c'] },
      [...prefix, '--entrypoint', '/bin/sh', base.image, '-c', 'from-image'],
    ],
    [
      'EntryPoint and Command',
      { EntryPoint: ['/rt'], Command: ['h'] },
      [...prefix, '--entrypoint', '/rt', base.image, 'h'],
    ],
    ['WorkingDirectory', { WorkingDirectory: '/srv' }, [...prefix, '-w', '/srv', base.image]],
  ])('%s', (_case, overrides, expected) => {
    expect(imageRunArgs({ ...base, overrides })).toEqual(expected);
  });

  it('passes variables by name only, so no value shows in the process list', () => {
    expect(imageRunArgs(base).join(' ')).not.toContain('secret');
  });

  it("writes the registry's credentials as both engines read them, and marks it insecure for podman", () => {
    const files = pullFiles('127.0.0.1:4710', { username: 'AWS', password: 'pw' });
    expect(JSON.parse(files.authJson)).toEqual({
      auths: { '127.0.0.1:4710': { auth: Buffer.from('AWS:pw').toString('base64') } },
    });
    expect(files.registriesConf).toBe('[[registry]]\nlocation = "127.0.0.1:4710"\ninsecure = true\n');
  });
});
