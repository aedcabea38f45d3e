import type { HttpRequest } from '../http-events/types.js';
import type { SandboxResponse } from './request.js';

/**
 * A request addressed to something the sandbox answers over plain HTTP rather than as an
 * AWS API: an API Gateway stage, a Lambda function URL. Found by its Host header
 * (`{id}.execute-api.…`, `{url-id}.lambda-url.…`) or a path prefix on the sandbox's port.
 */
export interface IngressRequest extends HttpRequest {
  /** The Host header without its port, lower-cased ('' when absent). */
  host: string;
  /** The service in the request's SigV4 credential scope, when it is signed. */
  signedFor: string | undefined;
}

/** An address a deployed API or function URL answers on, as the admin API lists it. */
export interface IngressEndpoint {
  kind: 'rest-api' | 'http-api' | 'function-url';
  /** The API id or the function URL's id. */
  id: string;
  region: string;
  /** The stage (APIs) or the function and qualifier (function URLs). */
  name: string;
  /** The URL AWS would answer on (what the CDK's stack outputs hold). */
  awsUrl: string;
  /** The same URL on this sandbox: host style (`*.localhost`) and path style. */
  hostStyleUrl: string;
  pathStyleUrl: string;
}

/** What a service module answers over plain HTTP (see ServiceModule.ingress). */
export interface Ingress {
  /** The operation the request counts as when it is addressed to what this module serves, else undefined. */
  claim(request: IngressRequest): string | undefined;
  serve(request: IngressRequest, operation: string): Promise<SandboxResponse>;
  /** Whether an operation it claims changes state (a push to the registry); none do unless it says. */
  mutating?(operation: string): boolean;
  /** Every address the module answers on now. */
  endpoints(): IngressEndpoint[];
}

/** `{id}.{label}.…` → the id, for a Host header whose second label is `label`. */
export function hostId(host: string, label: string): string | undefined {
  const [id, second] = host.split('.');
  return second === label && id ? id : undefined;
}

/** The sandbox's own `host:port` for local URLs, from its endpoint URL. */
export function localAuthority(endpoint: string | undefined): { host: string; port: string } {
  const url = new URL(endpoint ?? 'http://127.0.0.1:4566');
  return { host: url.hostname, port: url.port };
}
