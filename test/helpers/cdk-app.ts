import { App } from 'aws-cdk-lib';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { buildContext } from '../../src/assembly/context.js';
import { tempDir } from '../assembly/helpers.js';

/**
 * Synthesizes a CDK app built by `build` with aws-cdk-lib, in this process, into a new
 * directory removed after the file's tests (a cloud assembly for `cdkd deploy -a`). The
 * app gets the context `cdkd synth` hands an app with no cdk.json: default settings,
 * version reporting and asset metadata on.
 */
export function synthesizeApp(build: (app: App) => void): string {
  const outdir = tempDir();
  const app = new App({ outdir, context: buildContext({ project: {}, cached: {}, commandLine: {} }) });
  build(app);
  app.synth();
  return outdir;
}

/** A Node.js function whose handler is `exports.handler` in the given source. */
export function inlineFunction(scope: Construct, id: string, source: string): Function {
  return new Function(scope, id, {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline(source),
  });
}
