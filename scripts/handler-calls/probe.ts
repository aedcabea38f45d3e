// Asks a running sandbox whether it answers a call: the operation is sent through the real
// SDK client with a minimal request (placeholders for the URI labels the client insists on),
// and any answer but "no such service/operation" counts as served.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from './sdk-clients.js';

/** The error codes the sandbox answers for a service or operation it does not serve. */
export const NOT_SERVED_CODES: ReadonlySet<string> = new Set([
  'UnknownService',
  'UnknownOperationException',
  'UnknownOperation',
  'InvalidAction',
  'NotImplemented',
]);

export interface ProbeResult {
  /** Undefined when the call succeeded. */
  errorCode?: string;
  message?: string;
  /** Why the probe could not be sent (no client installed, no such command). */
  unsendable?: string;
}

type Client = { send(command: unknown): Promise<unknown>; destroy(): void };
type ClientModule = Record<string, unknown>;

const requireFromRoot = createRequire(join(REPO_ROOT, 'package.json'));

function loadClient(service: string): ClientModule | undefined {
  try {
    return requireFromRoot(`@aws-sdk/client-${service}`) as ClientModule;
  } catch {
    return undefined;
  }
}

/** Sends `operation` of `service` with `input` (plus placeholders for missing URI labels) to `endpoint`. */
export async function probe(
  endpoint: string,
  service: string,
  operation: string,
  input: Record<string, unknown> = {},
  region = 'us-east-1',
): Promise<ProbeResult> {
  const module = loadClient(service);
  if (!module) return { unsendable: `@aws-sdk/client-${service} is not installed` };
  const ClientClass = Object.entries(module).find(
    ([name]) => name.endsWith('Client') && name !== '__Client',
  )?.[1] as (new (config: object) => Client) | undefined;
  const CommandClass = module[`${operation}Command`] as (new (input: object) => unknown) | undefined;
  if (!ClientClass || !CommandClass)
    return { unsendable: `@aws-sdk/client-${service} has no ${operation}Command` };
  const client = new ClientClass({
    endpoint,
    region,
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'AKIDSANDBOX', secretAccessKey: 'sandbox-secret' },
  });
  const request = { ...input };
  try {
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        await client.send(new CommandClass(request));
        return {};
      } catch (error) {
        const { name, message, $metadata } = error as Error & { $metadata?: unknown };
        const label = /(?:input HTTP label|non-null value for|value for label)\W+(\w+)/i.exec(message)?.[1];
        if (label && $metadata === undefined && request[label] === undefined) {
          request[label] = 'sandbox-probe';
          continue;
        }
        return { errorCode: name, message };
      }
    }
    return { unsendable: `the client kept refusing the request: ${JSON.stringify(request)}` };
  } finally {
    client.destroy();
  }
}

/** Whether a probe's answer shows the sandbox serves the call. */
export function isServed(result: ProbeResult): boolean {
  return result.unsendable === undefined && !NOT_SERVED_CODES.has(result.errorCode ?? '');
}
