import { DescribeTableCommand, type DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb';
import { awsErrorCode } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';
import type { Clock } from '../clock.js';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 5000;
const TIMEOUT_MS = 30 * 60 * 1000;

/**
 * Polls DescribeTable until the table (and every global index) is ACTIVE, or until it
 * is gone. Backs off from 0.5 s to 5 s; gives up after 30 minutes of clock time.
 * AWS behaviour it answers: CreateTable and UpdateTable return at once with the table
 * CREATING/UPDATING, DynamoDB refuses the next UpdateTable, tag or TTL call on it with
 * ResourceInUseException until it is ACTIVE again, and CloudFormation reports the
 * resource done only then; DeleteTable returns DELETING and the name stays taken
 * until the table is gone.
 */
export async function waitForTable(
  client: DynamoDBClient,
  name: string,
  until: 'active' | 'gone',
  clock: Clock,
  signal?: AbortSignal,
): Promise<TableDescription | undefined> {
  const started = clock.now();
  let delay = FIRST_DELAY_MS;
  for (;;) {
    const table = await describe(client, name);
    if (until === 'gone' && !table) return undefined;
    if (until === 'active') {
      if (!table) {
        const error = new Error(`Requested resource not found: Table: ${name} not found`);
        error.name = 'ResourceNotFoundException';
        throw error;
      }
      if (isActive(table)) return table;
    }
    if (clock.now() - started > TIMEOUT_MS) {
      throw new CdkdError(
        'DYNAMODB_WAIT_TIMEOUT',
        `Table ${name} did not become ${until === 'active' ? 'ACTIVE' : 'deleted'} within 30 minutes (status ${table?.TableStatus ?? 'unknown'}).`,
        { hint: 'Check the table in the DynamoDB console, then run the deploy again.' },
      );
    }
    await clock.sleep(delay, signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

function isActive(table: TableDescription): boolean {
  return (
    table.TableStatus === 'ACTIVE' &&
    (table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')
  );
}

export async function describe(client: DynamoDBClient, name: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (error) {
    if (awsErrorCode(error) === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}
