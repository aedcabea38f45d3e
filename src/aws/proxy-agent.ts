import { Agent as HttpAgent, type ClientRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { proxyFor, type ProxyEnvironment } from './proxy-settings.js';

/** `addRequest` is how Node hands a request to its agent; @types/node does not declare it. */
type AddRequest = (req: ClientRequest, options: RequestOptions) => void;

/**
 * The routing agent installed on every SDK client when a proxy is configured: each
 * request is handed, as it is created, to the agent for the proxy its URL calls for,
 * or to a direct agent when NO_PROXY names the host. Handing it over then (not once
 * a socket is wanted) lets the proxy agent set the absolute request path before the
 * SDK writes the headers. The AWS SDK for JavaScript v3 reads no proxy variables itself.
 */
class RoutingAgent extends HttpAgent {
  private readonly direct: HttpAgent;
  private readonly proxies = new Map<string, HttpAgent>();

  constructor(
    private readonly secure: boolean,
    private readonly env: ProxyEnvironment,
    private readonly ca: string | undefined,
  ) {
    super({ keepAlive: true });
    // Node refuses an agent whose protocol is not the request's.
    Object.assign(this, secure ? { protocol: 'https:', defaultPort: 443 } : {});
    this.direct = secure
      ? new HttpsAgent({ keepAlive: true, ...(ca ? { ca } : {}) })
      : new HttpAgent({ keepAlive: true });
  }

  addRequest(req: ClientRequest, options: RequestOptions): void {
    const target = this.agentFor(req, options) as unknown as { addRequest: AddRequest };
    target.addRequest(req, options);
  }

  private agentFor(req: ClientRequest, options: RequestOptions): HttpAgent {
    const host = req.host.includes(':') ? `[${req.host}]` : req.host;
    const port = options.port ?? (this.secure ? 443 : 80);
    const proxy = proxyFor(new URL(`${this.secure ? 'https' : 'http'}://${host}:${port}`), this.env);
    if (proxy === undefined) return this.direct;
    let agent = this.proxies.get(proxy);
    if (!agent) {
      agent = this.secure
        ? new HttpsProxyAgent(proxy, { keepAlive: true, ...(this.ca ? { ca: this.ca } : {}) })
        : new HttpProxyAgent(proxy, { keepAlive: true });
      this.proxies.set(proxy, agent);
    }
    return agent;
  }

  override destroy(): void {
    this.direct.destroy();
    for (const agent of this.proxies.values()) agent.destroy();
    super.destroy();
  }
}

/**
 * The SDK clients' request handler options that route every request through {@link RoutingAgent};
 * `ca` (--ca-bundle-path, AWS_CA_BUNDLE) is what HTTPS connections trust, direct or proxied.
 */
export function proxyRequestHandler(
  env: ProxyEnvironment,
  ca?: string,
): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  return {
    httpAgent: new RoutingAgent(false, env, undefined),
    // An https.Agent by behaviour (protocol, default port), routing to real ones.
    httpsAgent: new RoutingAgent(true, env, ca) as unknown as HttpsAgent,
  };
}
