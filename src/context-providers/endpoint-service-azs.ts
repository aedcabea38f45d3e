import { DescribeVpcEndpointServicesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Provider } from './provider.js';

/** The zones an endpoint service is offered in; none known is an empty list, as the CDK CLI answers. */
export const endpointServiceAvailabilityZones: Provider = async (client, query) => {
  const ec2 = await client(EC2Client);
  const response = await ec2.send(
    new DescribeVpcEndpointServicesCommand({ ServiceNames: [String(query.serviceName)] }),
  );
  return { value: response.ServiceDetails?.[0]?.AvailabilityZones ?? [] };
};
