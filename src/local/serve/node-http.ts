import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAnswer, HttpRequest } from '../../http-events/types.js';

/** A Node request as the front door reads it (path and query apart, headers as sent). */
export async function readRequest(message: IncomingMessage): Promise<HttpRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const url = message.url ?? '/';
  const question = url.indexOf('?');
  const headerList: Array<[string, string]> = [];
  for (let index = 0; index < message.rawHeaders.length; index += 2)
    headerList.push([message.rawHeaders[index]!, message.rawHeaders[index + 1]!]);
  const headers: Record<string, string> = {};
  for (const [name, value] of headerList) {
    const lower = name.toLowerCase();
    headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}, ${value}`;
  }
  return {
    method: (message.method ?? 'GET').toUpperCase(),
    path: question < 0 ? url : url.slice(0, question),
    rawQuery: question < 0 ? '' : url.slice(question + 1),
    headers,
    headerList,
    body: Buffer.concat(chunks),
    sourceIp: message.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  };
}

export function writeAnswer(response: ServerResponse, answer: HttpAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
  for (const [name, values] of Object.entries(answer.headerLists ?? {})) response.setHeader(name, values);
  response.statusCode = answer.status;
  response.end(answer.body ?? '');
}
