import type { Codec } from '../service-module.js';
import { ec2Codec } from './ec2-query.js';
import { jsonCodec } from './json.js';
import { queryCodec } from './query.js';
import { restJsonCodec } from './rest-json.js';
import { restXmlCodec } from './rest-xml.js';

/** The REST services whose clients read XML (every other REST service speaks JSON). */
const REST_XML_SERVICES: ReadonlySet<string> = new Set([
  's3',
  's3-outposts',
  's3control',
  'route53',
  'cloudfront',
]);

/**
 * The codec a client of a service the sandbox does not serve can read, told from the
 * request itself: JSON 1.0/1.1 by its content type, the query protocol by its form body
 * (EC2's own error shape for EC2), REST-XML for the services that speak it, REST-JSON
 * otherwise. An SDK then reports the sandbox's error instead of failing to parse it.
 */
export function codecForUnserved(service: string, raw: { headers: Record<string, string> }): Codec {
  const contentType = (raw.headers['content-type'] ?? '').toLowerCase();
  const json = /application\/x-amz-json-(1\.[01])/.exec(contentType);
  if (json || raw.headers['x-amz-target']) return jsonCodec(json?.[1] === '1.0' ? '1.0' : '1.1');
  if (contentType.startsWith('application/x-www-form-urlencoded'))
    return service === 'ec2' ? ec2Codec : queryCodec;
  if (REST_XML_SERVICES.has(service)) return restXmlCodec;
  return restJsonCodec;
}
