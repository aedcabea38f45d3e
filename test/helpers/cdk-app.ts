import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildContext } from '../../src/assembly/context.js';

/**
 * Synthesizes a CDK app built by `build` with aws-cdk-lib, in this process, into a new
 * directory (a cloud assembly for `cdkd deploy -a`). The app gets the context `cdkd synth`
 * hands an app with no cdk.json: default settings, version reporting and asset metadata on.
 */
export function synthesizeApp(build: (app: App) => void): string {
  const outdir = mkdtempSync(join(tmpdir(), 'cdkd-app-'));
  const app = new App({ outdir, context: buildContext({ project: {}, cached: {}, commandLine: {} }) });
  build(app);
  app.synth();
  return outdir;
}
