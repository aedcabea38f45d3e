import type { AwsClients } from './client-factory.js';
import { awsErrorCode } from './error-class.js';

/** One export CloudFormation holds in a region: its name, value and the stack exporting it. */
export interface CloudFormationExport {
  name: string;
  value: string;
  stackName: string;
}

type Retry = <T>(label: string, call: () => Promise<T>) => Promise<T>;

async function cloudFormation(clients: AwsClients, region: string) {
  // Loaded on first use: only a run that reads CloudFormation's exports pays for the client.
  const sdk = await import('@aws-sdk/client-cloudformation');
  // One attempt per call: `retry` runs cdkd's schedules around it.
  return { sdk, client: await clients.client(sdk.CloudFormationClient, region, { maxAttempts: 1 }) };
}

/** `arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>` → `<name>`. */
export function stackNameOfId(stackId: string): string {
  const match = /:stack\/([^/]+)\//.exec(stackId);
  return match?.[1] ?? stackId;
}

/** Every export CloudFormation holds in `region` (ListExports, every page). */
export async function listCloudFormationExports(
  clients: AwsClients,
  region: string,
  retry: Retry,
): Promise<CloudFormationExport[]> {
  const { sdk, client } = await cloudFormation(clients, region);
  const exports: CloudFormationExport[] = [];
  let token: string | undefined;
  do {
    const page = await retry('ListExports', () =>
      client.send(new sdk.ListExportsCommand(token ? { NextToken: token } : {})),
    );
    for (const entry of page.Exports ?? []) {
      if (entry.Name === undefined) continue;
      exports.push({
        name: entry.Name,
        value: entry.Value ?? '',
        stackName: stackNameOfId(entry.ExportingStackId ?? ''),
      });
    }
    token = page.NextToken;
  } while (token);
  return exports;
}

/**
 * The CloudFormation stacks importing the export `name` in `region` (ListImports, every page).
 * CloudFormation answers a name nothing imports with a ValidationError, which is no importer.
 */
export async function listCloudFormationImporters(
  clients: AwsClients,
  region: string,
  name: string,
  retry: Retry,
): Promise<string[]> {
  const { sdk, client } = await cloudFormation(clients, region);
  const importers: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await retry(`ListImports ${name}`, () =>
        client.send(new sdk.ListImportsCommand({ ExportName: name, ...(token ? { NextToken: token } : {}) })),
      );
      importers.push(...(page.Imports ?? []));
      token = page.NextToken;
    } while (token);
  } catch (error) {
    if (awsErrorCode(error) === 'ValidationError' && /is not imported by any stack/.test(String(error)))
      return [];
    throw error;
  }
  return importers;
}
