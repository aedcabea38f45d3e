import { Stack } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

/** The destroy question comes after the stacks and --orphan ids are known, so a typo is refused, not confirmed. */
describe('the destroy question', () => {
  let app: string;

  beforeAll(async () => {
    app = synthesizeApp((cdkApp) => new Queue(new Stack(cdkApp, 'Asked'), 'Queue'));
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    expect((await runCli(['deploy', '-a', app], { env: env() })).code).toBe(0);
  }, 120_000);

  it('refuses a stack name that matches nothing before asking', async () => {
    const result = await runCli(['destroy', 'NoSuchStack', '-a', app], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [STACK_NOT_FOUND]');
    expect(result.stderr).not.toContain('CONFIRMATION_REQUIRED');
  });

  it('refuses an --orphan id the stack does not record before asking', async () => {
    const result = await runCli(['destroy', '-a', app, '--orphan', 'Nope'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [DESTROY_ORPHAN_UNKNOWN]');
  });

  it('names the selected stacks and, with nobody to ask and no --yes, changes nothing', async () => {
    const result = await runCli(['destroy', '-a', app], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error [CONFIRMATION_REQUIRED]: Destroy Asked? This deletes their resources. No terminal to ask on.',
    );
    const fromState = await runCli(['state', 'destroy', 'Asked'], { env: env() });
    expect(fromState.stderr).toContain(
      'Error [CONFIRMATION_REQUIRED]: Destroy Asked from its state? This deletes its resources. No terminal to ask on.',
    );
    const state = await runCli(['state', 'show', 'Asked', '--json'], { env: env() });
    const { resources } = JSON.parse(state.stdout) as { resources: Record<string, unknown> };
    expect(Object.keys(resources)).toHaveLength(1);
  });
});
