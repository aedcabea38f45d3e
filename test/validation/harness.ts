import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { join } from 'node:path';
import { Manifest } from '@aws-cdk/cloud-assembly-schema';
import { readAssembly } from '../../src/assembly/index.js';
import { isCdkdError } from '../../src/errors.js';
import { deployApp, type DeployAppInput } from '../../src/toolkit/deploy/deploy-app.js';
import { destroyApp } from '../../src/toolkit/destroy/destroy-app.js';
import { Session } from '../../src/toolkit/session/session.js';
import { tempDir, writeAssembly, writeJson, type StackSpec } from '../assembly/helpers.js';
import { liveResources } from '../helpers/inventory.js';
import { eventsTo } from '../helpers/recording-io-host.js';

export const STATE_BUCKET = 'cdkd-state-000000000000';
export const ASSET_BUCKET = 'cdkd-assets-000000000000-us-east-1';

export function session(statePrefix = 'cdkd'): Session {
  return new Session({ statePrefix });
}

/** An assembly directory holding `stacks`, written as CDK writes them. */
export function assembly(stacks: StackSpec[]): string {
  const dir = tempDir();
  writeAssembly(dir, stacks);
  return dir;
}

/** An assembly whose one stack's manifest names `templateFile` (and `properties`) as given, the template written there. */
export function assemblyWithTemplateFile(
  templateFile: string,
  template: unknown,
  properties: Record<string, unknown> = {},
): string {
  const dir = tempDir();
  writeJson(join(dir, templateFile), template);
  writeJson(join(dir, 'manifest.json'), {
    version: Manifest.version(),
    artifacts: {
      Escaping: {
        type: 'aws:cloudformation:stack',
        environment: 'aws://unknown-account/unknown-region',
        properties: { templateFile, ...properties },
      },
    },
  });
  return dir;
}

type DeployOverrides = Partial<Omit<DeployAppInput, 'assembly' | 'session'>> & { statePrefix?: string };

/** `cdkd deploy -a dir` in-process: reads the assembly, then deploys what it selects. */
export async function deploy(dir: string, overrides: DeployOverrides = {}) {
  const { statePrefix, ...rest } = overrides;
  return deployApp({
    session: session(statePrefix),
    assembly: readAssembly(dir),
    patterns: [],
    all: false,
    exclusively: false,
    strict: false,
    concurrency: 8,
    stackConcurrency: 2,
    dryRun: false,
    forceStatefulRecreation: false,
    parameters: [],
    io: eventsTo(() => undefined),
    command: 'deploy',
    ...rest,
  });
}

/** `cdkd destroy -a dir --yes` in-process. */
export async function destroy(dir: string, patterns: string[] = []) {
  return destroyApp({
    session: session(),
    assembly: readAssembly(dir),
    patterns,
    all: patterns.length === 0,
    concurrency: 8,
    stackConcurrency: 2,
    // --yes: the destroy question answered yes.
    io: eventsTo(
      () => undefined,
      async (question) => question.code === 'CDKD_Q4000' || question.defaultAnswer,
    ),
    command: 'destroy',
  });
}

/** How a command ended: 'ok', the CdkdError's code, or the text of anything else (a crash). */
export async function outcomeOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
    return 'ok';
  } catch (error) {
    if (isCdkdError(error)) return error.code;
    return `crash: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
}

/**
 * Everything a command could have touched: every object of the state and asset buckets
 * with its ETag, and every resource the sandbox holds.
 */
export async function snapshot(sandboxUrl: string): Promise<string> {
  const s3 = new S3Client({ endpoint: sandboxUrl, region: 'us-east-1', forcePathStyle: true });
  const objects: string[] = [];
  for (const bucket of [STATE_BUCKET, ASSET_BUCKET]) {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) objects.push(`${bucket}/${object.Key} ${object.ETag}`);
      token = page.NextContinuationToken;
    } while (token);
  }
  const resources = (await liveResources(sandboxUrl)).map((r) => `${r.type} ${r.id}`);
  return JSON.stringify({ objects: objects.sort(), resources }, null, 1);
}
