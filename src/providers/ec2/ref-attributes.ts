/**
 * What `Ref` and each `Fn::GetAtt` attribute return for AWS::EC2::Subnet, as CloudFormation
 * answers ({id} is the physical id, the subnet id; {vpc}, {cidr}, {zone} and {zoneId} what the
 * subnet was made with). Tested row by row.
 */
export const EC2_REF_ATTRIBUTES: Record<string, { ref: 'physicalId'; attributes: Record<string, string> }> = {
  'AWS::EC2::Subnet': {
    ref: 'physicalId',
    attributes: {
      SubnetId: '{id}',
      VpcId: '{vpc}',
      CidrBlock: '{cidr}',
      AvailabilityZone: '{zone}',
      AvailabilityZoneId: '{zoneId}',
    },
  },
};
