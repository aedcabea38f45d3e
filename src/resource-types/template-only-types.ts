/** CDK's version-reporting resource: CloudFormation-only bookkeeping, never deployed by cdkd. */
export const CDK_METADATA_TYPE = 'AWS::CDK::Metadata';

/** A nested stack: cdkd deploys its template itself, under the parent's state, not through a provider. */
export const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';
