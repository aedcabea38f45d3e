import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/;

const bare = (host: string): string => host.replace(/^\[|\]$/g, '');

/**
 * Inside a function's process only: an `https` request to the sandbox's own host on the
 * default port goes to the sandbox's http port instead. The CDK's handlers answer
 * CloudFormation with `https.request({hostname, path, method: 'PUT'})` to the ResponseURL's
 * host and no port; on the sandbox that URL is `http://127.0.0.1:<port>/...`.
 */
export function routeHttpsToSandbox(endpoint: string | undefined): void {
  if (!endpoint) return;
  const sandbox = new URL(endpoint);
  if (sandbox.protocol !== 'http:') return;
  const sandboxHost = bare(sandbox.hostname);
  // A sandbox on loopback is also who `localhost` / `127.0.0.1` mean on port 443.
  const isSandbox = (host: string): boolean =>
    host === sandboxHost || (LOOPBACK.test(sandboxHost) && LOOPBACK.test(host));
  const toSandbox = (target: string | undefined, port: unknown): boolean =>
    target !== undefined &&
    isSandbox(bare(target)) &&
    (port === undefined || port === null || port === '' || Number(port) === 443);

  const rewrite = (args: unknown[]): unknown[] | undefined => {
    const [first] = args;
    if (typeof first === 'string' || first instanceof URL) {
      const url = new URL(first.toString());
      if (url.protocol !== 'https:' || !toSandbox(url.hostname, url.port || undefined)) return undefined;
      url.protocol = 'http:';
      url.hostname = sandbox.hostname;
      url.port = sandbox.port;
      return [url, ...args.slice(1)];
    }
    if (typeof first === 'object' && first !== null) {
      const options = first as http.RequestOptions;
      const host = options.hostname ?? options.host ?? undefined;
      if (!toSandbox(host ?? undefined, options.port)) return undefined;
      // An https agent cannot carry an http request.
      const routed: http.RequestOptions = {
        ...options,
        protocol: 'http:',
        hostname: sandboxHost,
        port: Number(sandbox.port),
      };
      delete routed.agent;
      delete routed.host;
      return [routed, ...args.slice(1)];
    }
    return undefined;
  };

  const originalRequest = https.request;
  const originalGet = https.get;
  https.request = ((...args: unknown[]) => {
    const routed = rewrite(args);
    return routed
      ? (http.request as (...a: unknown[]) => http.ClientRequest)(...routed)
      : (originalRequest as (...a: unknown[]) => http.ClientRequest)(...args);
  }) as typeof https.request;
  https.get = ((...args: unknown[]) => {
    const routed = rewrite(args);
    return routed
      ? (http.get as (...a: unknown[]) => http.ClientRequest)(...routed)
      : (originalGet as (...a: unknown[]) => http.ClientRequest)(...args);
  }) as typeof https.get;
  syncBuiltinESMExports();
}
