import { FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { pythonInterpreter } from '../../src/lambda-runtime/python/python-runtime.js';
import { createFunction, lambdaClient, logsClient } from './lambda-runtime-helpers.js';

const python = pythonInterpreter();

describe.skipIf(!python)(
  `a Python handler's logging${python ? '' : ' (skipped: python3 is not installed)'}`,
  () => {
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

    it("reaches the function's log as Lambda's runtime writes it: one event per record, traceback included", async () => {
      await createFunction(lambda, {
        name: 'logs-with-logging',
        runtime: 'python3.12',
        files: {
          'index.py': [
            'import logging',
            'logger = logging.getLogger()',
            'logger.setLevel(logging.INFO)',
            'def handler(event, context):',
            '    logger.info("copying %s", "site")',
            '    try:',
            '        raise ValueError("no such bucket")',
            '    except ValueError:',
            '        logger.exception("copy failed")',
            '    return "done"',
          ].join('\n'),
        },
      });
      const invoked = await lambda.send(new InvokeCommand({ FunctionName: 'logs-with-logging' }));
      const requestId = invoked.$metadata.requestId!;
      const { events } = await logsClient(sandbox).send(
        new FilterLogEventsCommand({ logGroupName: '/aws/lambda/logs-with-logging' }),
      );
      const messages = (events ?? []).map((event) => event.message!);
      expect(messages).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^\\[INFO\\]\\t\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\t${requestId}\\tcopying site$`,
          ),
        ),
      );
      const failure = messages.find((message) => message.startsWith('[ERROR]'));
      expect(failure).toContain(`\t${requestId}\tcopy failed\nTraceback (most recent call last):`);
      expect(failure).toContain('ValueError: no such bucket');
    });
  },
);
