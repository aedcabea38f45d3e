import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import { addAppOptions, synthesizeFor, type AppOptions } from '../app-options.js';
import { globalOptions } from '../global-options.js';

interface LocalInvokeOptions extends AppOptions {
  event?: string;
}

export function registerLocal(program: Command): void {
  const local = program.command('local').description("run the app's functions on this machine");
  addAppOptions(
    local
      .command('invoke')
      .description(
        'run one invocation of a Node.js or Python function of the app; prints its result, its logs to stderr',
      )
      .argument('<function>', '<stack>/<function>: the function by logical ID or construct path'),
  )
    .option('--event <file>', 'the event, a JSON file (default: stdin when it is not a terminal, else {})')
    .action(async (target: string, options: LocalInvokeOptions, command: Command) => {
      const { localInvoke } = await import('../../local/invoke.js');
      const event = await readEvent(options.event);
      const assembly = await synthesizeFor(command, options);
      const region =
        globalOptions(command).region ??
        process.env.AWS_REGION ??
        process.env.AWS_DEFAULT_REGION ??
        'us-east-1';
      const outcome = await localInvoke({
        assembly,
        target,
        event,
        region,
        onLog: (line) => process.stderr.write(`${line}\n`),
        onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
      });
      if ('result' in outcome) {
        process.stdout.write(`${outcome.result}\n`);
        return;
      }
      process.stdout.write(`${JSON.stringify(outcome.error)}\n`);
      process.stderr.write(
        `The function failed: ${outcome.error.errorType}: ${outcome.error.errorMessage}\n`,
      );
      process.exitCode = 1;
    });
}

async function readEvent(file: string | undefined): Promise<string> {
  if (file !== undefined) {
    return readFile(file, 'utf8').catch((cause: NodeJS.ErrnoException) => {
      throw new CdkdError(
        'LOCAL_EVENT_INVALID',
        `The event file ${file} cannot be read (${cause.code ?? cause.message}).`,
        {
          hint: 'Pass the path of a JSON file with --event, or the event on stdin.',
          cause,
        },
      );
    });
  }
  if (process.stdin.isTTY) return '{}';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return text === '' ? '{}' : text;
}
