import { createContext, Script } from 'node:vm';
import type { ViewerFunction } from './distribution-model.js';

/** A CloudFront Functions request or response, as the handler sees it. */
export interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string; multiValue?: Array<{ value: string }> }>;
  headers: Record<string, { value: string }>;
  cookies: Record<string, { value: string }>;
}

export interface CfResponse {
  statusCode: number;
  statusDescription?: string;
  headers?: Record<string, { value: string }>;
  body?: string | { data: string; encoding: 'text' | 'base64' };
}

export interface ViewerEvent {
  eventType: ViewerFunction['eventType'];
  distributionId: string;
  viewerIp: string;
  request: CfRequest;
  response?: CfResponse;
}

/** Whether this function can run here, or why not (shown once at start, then per request). */
export function unsupportedReason(fn: ViewerFunction): string | undefined {
  if (fn.runtime !== 'cloudfront-js-1.0' && fn.runtime !== 'cloudfront-js-2.0')
    return `its runtime ${fn.runtime} is not one cdkd knows`;
  if (fn.code === undefined) return 'its FunctionCode is not a string in the template';
  // The `cloudfront` module (KeyValueStore, origin changes) exists only at the edge.
  if (/\bimport\b[^;]*\bfrom\b|\brequire\s*\(/.test(fn.code))
    return 'it imports a module (such as cloudfront for a KeyValueStore), which cdkd does not provide locally';
  return undefined;
}

const TIMEOUT_MS = 1000;

/**
 * Runs a CloudFront Function's `handler(event)` in a fresh V8 context (no require, no
 * process), with the event CloudFront builds for it; what it returns is the request to go on
 * with, or a response that ends the request. 2.0 handlers may be async.
 */
export async function runViewerFunction(
  fn: ViewerFunction,
  input: ViewerEvent,
  onLog: (line: string) => void,
): Promise<CfRequest | CfResponse> {
  const event = {
    version: '1.0',
    context: {
      distributionDomainName: 'localhost',
      distributionId: input.distributionId,
      eventType: input.eventType,
      requestId: `local-${Date.now().toString(36)}`,
    },
    viewer: { ip: input.viewerIp },
    request: input.request,
    ...(input.response ? { response: input.response } : {}),
  };
  const context = createContext({
    console: { log: (...parts: unknown[]) => onLog(`${fn.logicalId}: ${parts.map(String).join(' ')}`) },
    __event: JSON.stringify(event),
  });
  const script = new Script(`${fn.code ?? ''}\n;handler(JSON.parse(__event));`, {
    filename: `${fn.logicalId}.js`,
  });
  const result: unknown = await script.runInContext(context, { timeout: TIMEOUT_MS });
  if (typeof result !== 'object' || result === null)
    throw new Error(`the handler returned ${JSON.stringify(result)}, not a request or a response`);
  return JSON.parse(JSON.stringify(result)) as CfRequest | CfResponse;
}

export function isResponse(value: CfRequest | CfResponse): value is CfResponse {
  return 'statusCode' in value;
}
