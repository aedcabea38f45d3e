/** What the page may ask of a cdkd sandbox's admin API (`/_sandbox/*`): route → methods. */
const ALLOWED: Record<string, readonly string[]> = {
  health: ['GET'],
  inventory: ['GET'],
  calls: ['GET'],
  faults: ['GET', 'POST', 'DELETE'],
  latency: ['GET', 'PUT'],
};

/** Deeper routes the page may read: the recent calls and a queue's messages (never received). */
const READABLE = new Set(['calls/recent', 'views/sqs/messages']);

export interface ProxyAnswer {
  status: number;
  body: string;
}

/**
 * Forwards one admin request to the sandbox at `endpoint` and returns its answer as is.
 * Anything but the routes above, or no sandbox configured, is refused here.
 */
export async function forwardToSandbox(
  endpoint: string | undefined,
  method: string,
  route: string,
  body: string,
  search = '',
): Promise<ProxyAnswer> {
  const [base, id, extra] = route.split('/');
  const allowed =
    (method === 'GET' && READABLE.has(route)) ||
    (base !== undefined &&
      extra === undefined &&
      (id === undefined ? ALLOWED[base]?.includes(method) : base === 'faults' && method === 'DELETE'));
  if (!allowed) return answer(404, 'NotFound', `no sandbox route ${method} ${route}`);
  if (!endpoint) {
    return answer(404, 'NoSandbox', 'AWS_ENDPOINT_URL is not set: cdkd is not pointed at a sandbox.');
  }
  try {
    const response = await fetch(new URL(`/_sandbox/${route}${search}`, endpoint), {
      method,
      ...(method === 'GET' || method === 'DELETE'
        ? {}
        : { body, headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return answer(
      502,
      'SandboxUnreachable',
      `the sandbox at ${endpoint} did not answer: ${(error as Error).message}`,
    );
  }
}

function answer(status: number, code: string, message: string): ProxyAnswer {
  return { status, body: JSON.stringify({ error: { code, message } }) };
}
