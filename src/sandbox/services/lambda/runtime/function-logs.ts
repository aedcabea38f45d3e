import { randomBytes } from 'node:crypto';
import type { SandboxContext } from '../../../service-module.js';
import { logWriter } from '../../../ports/index.js';

/** Lambda's log group for a function: LoggingConfig's LogGroup, else `/aws/lambda/<name>`. */
export const logGroupName = (functionName: string, logging?: { logGroup?: string }): string =>
  logging?.logGroup ?? `/aws/lambda/${functionName}`;

/** A new container's stream: `2024/05/01/[$LATEST]<32 hex>`, as Lambda names them. */
export function newLogStreamName(version: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '/');
  return `${day}/[${version}]${randomBytes(16).toString('hex')}`;
}

export interface LogLine {
  timestamp: number;
  message: string;
}

/**
 * One container's log stream: each line is written as it comes (a running or hung
 * handler's output can be read before it ends), in order.
 */
export class StreamLog {
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: SandboxContext,
    private readonly region: string,
    private readonly logGroup: string,
    readonly stream: string,
  ) {}

  write(message: string): LogLine {
    const line = { timestamp: Date.now(), message };
    this.written = this.written
      .then(() => writeFunctionLog(this.context, this.region, this.logGroup, this.stream, [line]))
      .catch((error: unknown) => {
        process.stderr.write(`cdkd sandbox: could not write a Lambda log line: ${String(error)}\n`);
      });
    return line;
  }

  /** Settles when every line written so far is stored. */
  flushed(): Promise<void> {
    return this.written;
  }
}

/** Writes what a function printed to its group in the sandbox's CloudWatch Logs (when Logs is served). */
export function writeFunctionLog(
  context: SandboxContext,
  region: string,
  logGroup: string,
  stream: string,
  lines: LogLine[],
): Promise<void> {
  if (lines.length === 0) return Promise.resolve();
  return logWriter.of(context)?.append(region, logGroup, stream, lines) ?? Promise.resolve();
}

/** The last 4 KB of an invocation's log, base64, as `X-Amz-Log-Result` carries it for LogType Tail. */
export function logTail(lines: LogLine[]): string {
  const text = Buffer.from(lines.map((line) => `${line.message}\n`).join(''));
  return text.subarray(Math.max(0, text.length - 4096)).toString('base64');
}
