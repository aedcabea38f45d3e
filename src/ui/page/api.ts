/** JSON from the server; the token travels in the cookie the page's load set. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin' });
  const body = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `${path}: HTTP ${response.status}`);
  return body;
}

export async function sendJson(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { error?: { message: string } };
  if (!response.ok) throw new Error(answer.error?.message ?? `${path}: HTTP ${response.status}`);
  return answer;
}
