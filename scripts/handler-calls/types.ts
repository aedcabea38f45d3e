/** How a handler's code makes a call. */
export type Via =
  | 'command' // new XCommand(...) sent through client.send
  | 'method' // client.operation(...) on an aggregated client
  | 'waiter' // waitUntilX, polling one operation
  | 'credentials' // a credential provider (fromTemporaryCredentials: STS AssumeRole)
  | 'boto3' // client('svc').operation_name(...) in a Python handler
  | 'aws-cli' // the AWS CLI run as a subprocess
  | 'AwsCustomResource'; // the service/action an AwsCustomResource names

/** One AWS call, where it was found. */
export interface FoundCall {
  /** The v3 package name: `@aws-sdk/client-<service>`. */
  service: string;
  operation: string;
  /** The handler family: its folder under custom-resource-handlers/dist (or core's dist). */
  family: string;
  /** The file or template it was read from, relative to aws-cdk-lib or the corpus. */
  source: string;
  via: Via;
  /** False when no installed client could confirm the operation exists. */
  verified: boolean;
}

/** A handler that calls whatever its properties name: its calls are listed from what asks for them. */
export interface GenericHandler {
  family: string;
  source: string;
  note: string;
}

export interface Extraction {
  calls: FoundCall[];
  generic: GenericHandler[];
}
