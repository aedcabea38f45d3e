import { existsSync } from 'node:fs';
import { InvokeCommand, PublishLayerVersionCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { optSupport } from '../../src/sandbox/services/lambda/runtime/opt-mount.js';
import { zipModes } from '../../src/sandbox/services/lambda/runtime/zip-modes.js';
import { createFunction, lambdaClient, parsePayload } from './lambda-runtime-helpers.js';

/** A zip made on Unix: each file with its mode, as `zip` on Linux records it. */
function unixZip(files: Record<string, { text: string; mode: number }>): Uint8Array {
  const entries: Zippable = {};
  for (const [path, { text, mode }] of Object.entries(files)) {
    entries[path] = [strToU8(text), { os: 3, attrs: mode * 65536 }];
  }
  return zipSync(entries);
}

describe("a zip's Unix modes", () => {
  it('are read from its central directory, per entry', () => {
    const modes = zipModes(
      unixZip({
        'bin/tool': { text: '#!/bin/sh', mode: 0o100755 },
        'data.txt': { text: 'x', mode: 0o100644 },
      }),
    );
    expect(Object.fromEntries(modes)).toEqual({ 'bin/tool': 0o100755, 'data.txt': 0o100644 });
  });

  it('are none for a zip that records none', () => {
    expect(zipModes(zipSync({ 'a.txt': strToU8('a') })).size).toBe(0);
    expect(zipModes(new Uint8Array([1, 2, 3])).size).toBe(0);
  });
});

const support = optSupport();

describe.skipIf(!support.available)('layers at /opt', () => {
  let sandbox: Sandbox;
  let lambda: LambdaClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
    lambda = lambdaClient(sandbox);
  });
  afterAll(async () => {
    lambda.destroy();
    await sandbox.stop();
  });

  async function publish(
    name: string,
    files: Record<string, { text: string; mode: number }>,
  ): Promise<string> {
    const layer = await lambda.send(
      new PublishLayerVersionCommand({ LayerName: name, Content: { ZipFile: unixZip(files) } }),
    );
    return layer.LayerVersionArn!;
  }

  it("shows the function its layers merged at /opt, later layers over earlier ones, read-only, executables runnable with Lambda's interpreters", async () => {
    const first = await publish('first', {
      'shared.txt': { text: 'from first', mode: 0o100644 },
      'only-first.txt': { text: 'first only', mode: 0o100644 },
      'bin/hello': { text: '#!/bin/sh\necho "hello $1"\n', mode: 0o100755 },
    });
    const second = await publish('second', {
      'shared.txt': { text: 'from second', mode: 0o100644 },
      'bin/node-tool': {
        text: "#!/var/lang/bin/node\nconsole.log('node tool ' + process.argv[2]);\n",
        mode: 0o100755,
      },
    });
    await createFunction(lambda, {
      name: 'reads-opt',
      layers: [first, second],
      files: {
        'index.js': `
const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
exports.handler = async () => {
  let write;
  try { writeFileSync('/opt/new.txt', 'x'); write = 'written'; } catch (error) { write = error.code; }
  return {
    shared: readFileSync('/opt/shared.txt', 'utf8'),
    onlyFirst: readFileSync('/opt/only-first.txt', 'utf8'),
    hello: execFileSync('/opt/bin/hello', ['layers']).toString().trim(),
    nodeTool: execFileSync('/opt/bin/node-tool', ['ran']).toString().trim(),
    onPath: execFileSync('hello', ['path']).toString().trim(),
    write,
  };
};`,
      },
    });
    const result = await lambda.send(new InvokeCommand({ FunctionName: 'reads-opt' }));
    expect(result.FunctionError, Buffer.from(result.Payload ?? []).toString()).toBeUndefined();
    expect(parsePayload(result.Payload)).toEqual({
      shared: 'from second',
      onlyFirst: 'first only',
      hello: 'hello layers',
      nodeTool: 'node tool ran',
      onPath: 'hello path',
      write: 'EROFS',
    });
    // The machine's own /opt is untouched.
    expect(existsSync('/opt/shared.txt')).toBe(false);
  });

  it('runs a function without layers as before, outside any namespace of its own', async () => {
    await createFunction(lambda, {
      name: 'no-layers',
      files: {
        'index.js': "exports.handler = async () => require('node:fs').existsSync('/opt/shared.txt');",
      },
    });
    expect(parsePayload((await lambda.send(new InvokeCommand({ FunctionName: 'no-layers' }))).Payload)).toBe(
      false,
    );
  });
});
