import type { SandboxResponse } from '../../request.js';
import type { Codec } from '../../service-module.js';
import { namespacedRestXmlCodec } from '../../protocols/rest-xml.js';
import { el, XML_DECLARATION } from '../../xml.js';

export const ROUTE53_XMLNS = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** Route 53's REST-XML: results under the API namespace, errors as `<ErrorResponse><Error>`. */
export const route53Codec: Codec = namespacedRestXmlCodec(ROUTE53_XMLNS, 'x-amzn-requestid');

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
