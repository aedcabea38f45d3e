import { CloudFrontClient, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import type { AwsClients } from '../../aws/index.js';
import type { LiveAttributeAnswer, LiveAttributeRequest } from './port.js';

/** A distribution's domain name, which CloudFront assigns at create (before it is Deployed). */
export async function readDistributionDomainName(
  clients: AwsClients,
  request: LiveAttributeRequest,
  options: { signal?: AbortSignal },
): Promise<LiveAttributeAnswer> {
  // CloudFront is global: its one endpoint signs in us-east-1.
  const cloudFront = await clients.client(CloudFrontClient, 'us-east-1');
  const answer = await cloudFront.send(new GetDistributionCommand({ Id: request.physicalId }), {
    abortSignal: options.signal,
  });
  const domainName = answer.Distribution?.DomainName;
  return domainName
    ? { kind: 'value', value: domainName }
    : { kind: 'unassigned', observed: `${answer.Distribution?.Status ?? 'unknown'} without one` };
}
