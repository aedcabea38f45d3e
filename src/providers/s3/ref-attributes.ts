import type { JsonObject } from '../provider.js';

/** Regions whose website endpoint is `s3-website-<region>` (the rest use `s3-website.<region>`). */
const DASH_WEBSITE_REGIONS = new Set([
  'us-east-1',
  'us-west-1',
  'us-west-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-northeast-1',
  'eu-west-1',
  'sa-east-1',
  'us-gov-west-1',
]);

/**
 * What `Ref` and `Fn::GetAtt` return for the S3 types, as CloudFormation returns them:
 *
 * | type                  | Ref         | attribute           | value                                          |
 * | --------------------- | ----------- | ------------------- | ---------------------------------------------- |
 * | AWS::S3::Bucket       | bucket name | Arn                 | arn:aws:s3:::{name}                            |
 * |                       |             | DomainName          | {name}.s3.amazonaws.com                        |
 * |                       |             | RegionalDomainName  | {name}.s3.{region}.amazonaws.com               |
 * |                       |             | DualStackDomainName | {name}.s3.dualstack.{region}.amazonaws.com     |
 * |                       |             | WebsiteURL          | http://{name}.s3-website[-.]{region}.amazonaws.com |
 * | AWS::S3::BucketPolicy | bucket name | (none)              |                                                |
 *
 * Both Refs are the physical id, so no separate `ref` is recorded.
 */
export function bucketAttributesOf(name: string, region: string): JsonObject {
  const website = DASH_WEBSITE_REGIONS.has(region) ? `s3-website-${region}` : `s3-website.${region}`;
  return {
    Arn: `arn:aws:s3:::${name}`,
    DomainName: `${name}.s3.amazonaws.com`,
    RegionalDomainName: `${name}.s3.${region}.amazonaws.com`,
    DualStackDomainName: `${name}.s3.dualstack.${region}.amazonaws.com`,
    WebsiteURL: `http://${name}.${website}.amazonaws.com`,
  };
}
