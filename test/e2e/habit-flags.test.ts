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
});
