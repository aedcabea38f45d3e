import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Launch } from '../lambda-runtime/launch.js';
import { RESULT_FD, type ChildMessage, type FunctionErrorPayload } from '../lambda-runtime/protocol.js';

export interface ProcessInvocation {
  launch: Launch;
  env: Record<string, string>;
  taskRoot: string;
  event: string;
  timeoutSeconds: number;
  functionArn: string;
  onLog: (line: string) => void;
}

/**
 * One invocation in a fresh runtime process (the sandbox's line protocol: the request on
 * stdin, the answer on fd 3, what the handler prints on stdout and stderr).
 */
export async function runInProcess(
  input: ProcessInvocation,
): Promise<{ result: string } | { error: FunctionErrorPayload }> {
  const child = spawn(input.launch.command, input.launch.args, {
    cwd: input.taskRoot,
    env: input.env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const requestId = randomUUID();
  const outcome = new Promise<{ result: string } | { error: FunctionErrorPayload }>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        resolve({
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${input.timeoutSeconds}.00 seconds`,
          },
        });
      },
      // The clock starts once the handler is loaded; the margin covers loading it.
      input.timeoutSeconds * 1000 + 10_000,
    );
    const settle = (value: { result: string } | { error: FunctionErrorPayload }) => {
      clearTimeout(timer);
      resolve(value);
    };
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', input.onLog);
    }
    createInterface({ input: child.stdio[RESULT_FD] as Readable }).on('line', (line) => {
      const message = JSON.parse(line) as ChildMessage;
      if (message.type === 'log' || message.type === 'notice') input.onLog(message.text);
      else if (message.type === 'result') settle({ result: message.payload });
      else if (message.type === 'error') settle({ error: message.error });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      settle({
        error: {
          errorType: 'Runtime.ExitError',
          errorMessage: `RequestId: ${requestId} Error: Runtime exited with code ${code}`,
        },
      });
    });
  });
  child.stdin.write(
    `${JSON.stringify({
      requestId,
      payload: input.event,
      timeoutMs: input.timeoutSeconds * 1000,
      invokedFunctionArn: input.functionArn,
    })}\n`,
  );
  try {
    return await outcome;
  } finally {
    child.stdin.end();
    child.kill();
  }
}
