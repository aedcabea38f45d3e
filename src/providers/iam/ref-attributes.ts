/**
 * What `Ref` and each `Fn::GetAtt` attribute return for the IAM types, as CloudFormation
 * answers, and where the provider takes each from. One row per type; tested row by row.
 */
export const IAM_REF_ATTRIBUTES = {
  'AWS::IAM::Role': {
    ref: 'the role name (the physical id)',
    attributes: { Arn: 'CreateRole/GetRole Role.Arn', RoleId: 'CreateRole/GetRole Role.RoleId (AROA...)' },
  },
  'AWS::IAM::Policy': {
    ref: 'the generated policy id (the physical id)',
    attributes: { Id: 'the generated policy id' },
  },
  'AWS::IAM::ManagedPolicy': {
    ref: 'the policy ARN (the physical id)',
    attributes: {
      PolicyArn: 'GetPolicy Policy.Arn',
      PolicyId: 'GetPolicy Policy.PolicyId (ANPA...)',
      AttachmentCount: 'GetPolicy Policy.AttachmentCount',
      CreateDate: 'GetPolicy Policy.CreateDate, ISO 8601',
      DefaultVersionId: 'GetPolicy Policy.DefaultVersionId',
      IsAttachable: 'GetPolicy Policy.IsAttachable',
      PermissionsBoundaryUsageCount: 'GetPolicy Policy.PermissionsBoundaryUsageCount',
      UpdateDate: 'GetPolicy Policy.UpdateDate, ISO 8601',
    },
  },
  'AWS::IAM::InstanceProfile': {
    ref: 'the instance profile name (the physical id)',
    attributes: { Arn: 'CreateInstanceProfile/GetInstanceProfile InstanceProfile.Arn' },
  },
  'AWS::IAM::User': {
    ref: 'the user name (the physical id)',
    attributes: { Arn: 'CreateUser/GetUser User.Arn' },
  },
  'AWS::IAM::Group': {
    ref: 'the group name (the physical id)',
    attributes: { Arn: 'CreateGroup/GetGroup Group.Arn' },
  },
} as const;
