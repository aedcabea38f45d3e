import type { AwsClients } from '../../aws/index.js';
import { listCloudFormationExports, listCloudFormationImporters } from '../../aws/cloudformation-exports.js';
import { classifyAwsError } from '../../aws/error-class.js';
import { CdkdError, messageOf } from '../../errors.js';
import { canonicalJson } from '../../plan/index.js';
import type { OutputRecord } from '../../state/index.js';
import type { CloudFormationExportSource } from '../export-index.js';
import { holdsPendingValue } from './state-resolver.js';

type Retry = <T>(label: string, call: () => Promise<T>) => Promise<T>;

/**
 * CloudFormation's exports and importers in `region`, through the run's clients. A read that
 * fails is a refusal: without it cdkd could neither resolve the import nor know who imports.
 */
export function cloudFormationExportSource(
  clients: AwsClients,
  region: string,
  retry: Retry,
): CloudFormationExportSource {
  return {
    exports: () =>
      listCloudFormationExports(clients, region, retry).catch((error: unknown) => {
        throw unreadable('ListExports', region, error);
      }),
    importers: (name) =>
      listCloudFormationImporters(clients, region, name, retry).catch((error: unknown) => {
        throw unreadable(`ListImports ${name}`, region, error);
      }),
  };
}

function unreadable(call: string, region: string, error: unknown): CdkdError {
  const denied = classifyAwsError(error) === 'access-denied';
  return new CdkdError(
    'CLOUDFORMATION_EXPORTS_UNREADABLE',
    `Could not read CloudFormation's exports in ${region} (${call}): ${messageOf(error)}`,
    {
      hint: denied
        ? 'Allow cloudformation:ListExports and cloudformation:ListImports to the credentials cdkd runs with, then run it again.'
        : 'Run it again; if it persists, check that CloudFormation is reachable in that region.',
      cause: error,
    },
  );
}

/**
 * The export names a template reads through Fn::ImportValue, and whether one of them is
 * computed (Fn::Sub, a parameter...), which only evaluating the template can name.
 */
export function importedNames(template: unknown): { names: Set<string>; dynamic: boolean } {
  const names = new Set<string>();
  let dynamic = false;
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) return value.forEach(walk);
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Fn::ImportValue') {
        if (typeof inner === 'string') names.add(inner);
        else dynamic = true;
      }
      walk(inner);
    }
  };
  walk(template);
  return { names, dynamic };
}

/** How a deploy treats one of the stack's recorded exports. */
export type OwnExportChange = 'removed' | 'changed';

/**
 * The recorded exports of the stack that the new template removes or whose value changes
 * (or is known only after deploy, as when it reads a resource being replaced). Only these
 * are asked about at CloudFormation (ListImports).
 */
export function ownExportChanges(
  recorded: Readonly<Record<string, OutputRecord>>,
  planned: ReadonlyMap<string, unknown>,
): Map<string, OwnExportChange> {
  const changes = new Map<string, OwnExportChange>();
  for (const output of Object.values(recorded)) {
    const name = output.exportName;
    if (name === undefined) continue;
    if (!planned.has(name)) changes.set(name, 'removed');
    else {
      const value = planned.get(name);
      if (holdsPendingValue(value) || canonicalJson(value) !== canonicalJson(output.value))
        changes.set(name, 'changed');
    }
  }
  return changes;
}
