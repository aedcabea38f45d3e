import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runCliOnTty } from '../helpers/tty-cli.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const NOTHING_TO_ANSWER = { prompt: '\u0000never shown', answer: '' };
// The escape character spelled out: a control character in a regex literal trips the linter.
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[3[12]m`);

function app(delay: number): string {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: 'Coloured',
      template: { Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: delay } } } },
    },
  ]);
  return dir;
}

describe('--no-color and --debug, as the CDK CLI spells them', () => {
  beforeAll(async () => {
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    expect((await runCli(['deploy', '-a', app(1)], { env: env() })).code).toBe(0);
  }, 120_000);

  it('diff paints old and new on a terminal, and not with --no-color or NO_COLOR', async () => {
    const changed = app(5);
    const painted = await runCliOnTty(['diff', '-a', changed], { env: env(), ...NOTHING_TO_ANSWER });
    expect(painted.stdout).toMatch(ANSI_COLOUR);
    const flag = await runCliOnTty(['diff', '-a', changed, '--no-color'], {
      env: env(),
      ...NOTHING_TO_ANSWER,
    });
    expect(flag.stdout).toContain('DelaySeconds');
    expect(flag.stdout).not.toMatch(ANSI_COLOUR);
    const variable = await runCliOnTty(['diff', '-a', changed], {
      env: { ...env(), NO_COLOR: '1' },
      ...NOTHING_TO_ANSWER,
    });
    expect(variable.stdout).not.toMatch(ANSI_COLOUR);
  });

  it('--debug prints what --verbose prints: the cause under the error', async () => {
    const unreachable = { ...env(), AWS_ENDPOINT_URL: 'http://127.0.0.1:9' };
    const plain = await runCli(['state', 'list'], { env: unreachable });
    const debug = await runCli(['state', 'list', '--debug'], { env: unreachable });
    const verbose = await runCli(['state', 'list', '--verbose'], { env: unreachable });
    expect(plain.code).toBe(1);
    expect(debug.code).toBe(1);
    expect(debug.stderr.split('\n').length).toBeGreaterThan(plain.stderr.split('\n').length);
    expect(debug.stderr).toBe(verbose.stderr);
  });
});
