/** The proxy environment as the AWS CLI reads it (spec 003, "Proxy handling"). */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * A variable as the AWS CLI reads it: the lower-case spelling wins when it is set at all
 * (set empty, it turns the proxy off), the upper-case one otherwise.
 */
function variable(env: ProxyEnvironment, name: string): string | undefined {
  const lower = env[name.toLowerCase()];
  if (lower !== undefined) return lower.trim() || undefined;
  return env[name.toUpperCase()]?.trim() || undefined;
}

/** True when any proxy variable is set: only then does cdkd install its routing agent. */
export function proxyConfigured(env: ProxyEnvironment): boolean {
  return variable(env, 'https_proxy') !== undefined || variable(env, 'http_proxy') !== undefined;
}

/**
 * The proxy URL a request to `target` goes through, or undefined to connect directly:
 * `https_proxy` for https, `http_proxy` for http, unless NO_PROXY names the host.
 */
export function proxyFor(target: URL, env: ProxyEnvironment): string | undefined {
  const proxy = variable(env, target.protocol === 'https:' ? 'https_proxy' : 'http_proxy');
  if (proxy === undefined) return undefined;
  return bypassed(target, variable(env, 'no_proxy')) ? undefined : withScheme(proxy);
}

/**
 * NO_PROXY as the AWS CLI matches it: `*` bypasses everything; an entry (leading dot
 * optional) matches that host and its subdomains, or only that port when it names one.
 * A CIDR entry can never match, since a hostname holds no `/`: it is ignored.
 */
export function bypassed(target: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((raw) => {
      if (raw === '*') return true;
      // An IPv6 entry holds several colons: only `name:port` with one colon names a port.
      const [, name = raw, entryPort] = /^([^:]+):(\d+)$/.exec(raw.toLowerCase()) ?? [];
      if (entryPort !== undefined && entryPort !== port) return false;
      const domain = name.toLowerCase().replace(/^\./, '');
      return host === domain || host.endsWith(`.${domain}`);
    });
}

/** `proxy:3128` means http://proxy:3128, as curl and the AWS CLI read it. */
function withScheme(proxy: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}
