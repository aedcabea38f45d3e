import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { AwsClients } from '../../aws/index.js';
import { awsErrorCode } from '../../aws/error-class.js';

export interface ObjectListing {
  bucket: string;
  objects: Array<{ key: string; size: number; lastModified?: string }>;
  /** More objects than the first page holds. */
  truncated: boolean;
}

export interface FunctionLog {
  functionName: string;
  logGroup: string;
  events: Array<{ timestamp: string; message: string; stream?: string }>;
}

const PAGE = 100;

/** What services hold, read through their own read-only APIs (ListObjectsV2, FilterLogEvents). */
export class UiServiceData {
  constructor(private readonly clients: AwsClients) {}

  async objects(bucket: string, region?: string): Promise<ObjectListing> {
    const s3 = await this.clients.s3(region);
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: PAGE }));
    return {
      bucket,
      objects: (page.Contents ?? []).map((object) => ({
        key: object.Key ?? '',
        size: object.Size ?? 0,
        ...(object.LastModified ? { lastModified: object.LastModified.toISOString() } : {}),
      })),
      truncated: page.IsTruncated === true,
    };
  }

  /** The function's latest log events, from the log group its configuration names. */
  async logs(functionName: string, region?: string): Promise<FunctionLog> {
    const lambda = await this.clients.client(LambdaClient, region);
    const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }));
    const logGroup = config.LoggingConfig?.LogGroup ?? `/aws/lambda/${functionName}`;
    const logs = await this.clients.client(CloudWatchLogsClient, region);
    try {
      const page = await logs.send(new FilterLogEventsCommand({ logGroupName: logGroup, limit: PAGE }));
      return {
        functionName,
        logGroup,
        events: (page.events ?? []).map((event) => ({
          timestamp: new Date(event.timestamp ?? 0).toISOString(),
          message: event.message ?? '',
          ...(event.logStreamName ? { stream: event.logStreamName } : {}),
        })),
      };
    } catch (error) {
      // A function never invoked has no log group yet: nothing printed, not a failure.
      if (awsErrorCode(error) === 'ResourceNotFoundException') return { functionName, logGroup, events: [] };
      throw error;
    }
  }
}
