/**
 * What `Ref` and each `Fn::GetAtt` attribute return for the KMS types, as CloudFormation
 * answers ({id} is the physical id). Tested row by row.
 */
export const KMS_REF_ATTRIBUTES: Record<string, { ref: 'physicalId'; attributes: Record<string, string> }> = {
  // Ref is the key id; Arn and KeyId from CreateKey's KeyMetadata.
  'AWS::KMS::Key': {
    ref: 'physicalId',
    attributes: { Arn: 'arn:aws:kms:{region}:{account}:key/{id}', KeyId: '{id}' },
  },
  // Ref is the alias name (alias/...); no attributes.
  'AWS::KMS::Alias': { ref: 'physicalId', attributes: {} },
};
