/** The clients and credential providers every call needs, and STS's caller identity (loaded through sdk-modules.ts). */
export { S3Client } from '@aws-sdk/client-s3';
export { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
export { fromIni, fromNodeProviderChain, fromTemporaryCredentials } from '@aws-sdk/credential-providers';
