import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { sandboxEnv } from './sandbox.js';

/** The AWS CDK CLI (aws-cdk, a dev dependency). */
const CDK = join(REPO_ROOT, 'node_modules/aws-cdk/bin/cdk');

/** The environment README's "Using the AWS CDK CLI with the sandbox" gives. */
export function cdkEnv(sandboxUrl: string): Record<string, string> {
  return { ...sandboxEnv(sandboxUrl), CDK_DISABLE_VERSION_CHECK: '1' };
}

/** Runs the AWS CDK CLI against the sandbox (no notices), with its output on both streams together. */
export function runCdk(
  sandboxUrl: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CDK, ...args, '--no-notices'], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...cdkEnv(sandboxUrl) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: text }));
  });
}
