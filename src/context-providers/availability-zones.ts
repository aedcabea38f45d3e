import { DescribeAvailabilityZonesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Provider } from './provider.js';

/** The names of the region's zones in state `available`, in EC2's order. */
export const availabilityZones: Provider = async (client) => {
  const ec2 = await client(EC2Client);
  const response = await ec2.send(new DescribeAvailabilityZonesCommand({}));
  return {
    value: (response.AvailabilityZones ?? [])
      .filter((zone) => zone.State === 'available')
      .map((zone) => zone.ZoneName),
  };
};
