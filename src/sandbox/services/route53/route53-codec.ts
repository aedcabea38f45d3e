import { randomUUID } from 'node:crypto';
import type { SandboxError } from '../../errors.js';
import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { Codec } from '../../service-module.js';
import { el, XML_DECLARATION } from '../../xml.js';

export const ROUTE53_XMLNS = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** Route 53's REST-XML: results under the API namespace, errors as `<ErrorResponse><Error>`. */
export const route53Codec: Codec = {
  protocol: 'rest-xml',
  renderError(error: SandboxError, request: SandboxRequest): SandboxResponse {
    const body =
      XML_DECLARATION +
      el(
        'ErrorResponse',
        [
          el('Error', [el('Type', error.type), el('Code', error.code), el('Message', error.message)]),
          el('RequestId', request.requestId),
        ],
        `xmlns="${ROUTE53_XMLNS}"`,
      );
    return { status: error.status, headers: { ...error.headers, 'content-type': 'text/xml' }, body };
  },
  newRequestId: randomUUID,
  requestIdHeaders: (requestId) => ({ 'x-amzn-requestid': requestId }),
};

export function route53Result(
  root: string,
  content: Parameters<typeof el>[1],
  status = 200,
  headers: Record<string, string> = {},
): SandboxResponse {
  return {
    status,
    headers: { 'content-type': 'text/xml', ...headers },
    body: XML_DECLARATION + el(root, content, `xmlns="${ROUTE53_XMLNS}"`),
  };
}
