import { randomBytes } from 'node:crypto';
import type { SandboxContext } from '../../../service-module.js';
import { logWriter } from '../../logs/log-writer.js';

/** Lambda's log group for a function. */
export const logGroupName = (functionName: string): string => `/aws/lambda/${functionName}`;

/** A new container's stream: `2024/05/01/[$LATEST]<32 hex>`, as Lambda names them. */
export function newLogStreamName(version: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '/');
  return `${day}/[${version}]${randomBytes(16).toString('hex')}`;
}

export interface LogLine {
  timestamp: number;
  message: string;
}

/** Writes what a function printed to the sandbox's CloudWatch Logs (when Logs is served). */
export function writeFunctionLog(
  context: SandboxContext,
  region: string,
  functionName: string,
  stream: string,
  lines: LogLine[],
): Promise<void> {
  if (lines.length === 0) return Promise.resolve();
  return logWriter(context)?.append(region, logGroupName(functionName), stream, lines) ?? Promise.resolve();
}

/** The last 4 KB of an invocation's log, base64, as `X-Amz-Log-Result` carries it for LogType Tail. */
export function logTail(lines: LogLine[]): string {
  const text = Buffer.from(lines.map((line) => `${line.message}\n`).join(''));
  return text.subarray(Math.max(0, text.length - 4096)).toString('base64');
}
