import http from 'node:http';

export interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request to the sandbox with a Host header of the caller's choosing (Node's fetch sends
 * its own): how a client reaches an API or function URL host style, `{id}.execute-api.localhost`.
 */
export function requestWithHost(
  sandboxUrl: string,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<PlainResponse> {
  const { hostname, port } = new URL(sandboxUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, path, method: options.method ?? 'GET', headers: { ...options.headers, host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}
