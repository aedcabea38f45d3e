/**
 * JavaScript source of `put(url, body)`, for custom resource handlers written inline in
 * tests: PUTs a response body to the pre-signed ResponseURL, as the CDK's handlers do.
 */
export const PUT_RESPONSE_JS = `
const http = require('http');
const https = require('https');
function put(url, body) {
  const target = new URL(url);
  const client = target.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const request = client.request(target, { method: 'PUT', headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    request.end(body);
  });
}
`;
