import { requiredString } from '../../protocols/json.js';
import { resolve, type SsmCall } from './parameter-ops.js';
import { publicParameterRecords } from './public-parameters.js';
import { ssmErrors } from './ssm-errors.js';

const MAX_PAGE = 10;

/**
 * The parameters below a path: its direct children, or every descendant with Recursive,
 * the account's own and AWS's public ones alike, ten a page (AWS's maximum).
 */
export async function getParametersByPath(call: SsmCall): Promise<unknown> {
  const { store, region, input } = call;
  const path = requiredString(input, 'Path');
  if (!path.startsWith('/')) {
    throw ssmErrors.validation(
      `The parameter doesn't meet the parameter name requirements. The parameter name must begin with a forward slash "/". It can't be prefixed with "aws" or "ssm" (case-insensitive).`,
    );
  }
  const prefix = path.endsWith('/') ? path : `${path}/`;
  const recursive = input.Recursive === true;
  const size = typeof input.MaxResults === 'number' ? Math.min(input.MaxResults, MAX_PAGE) : MAX_PAGE;
  const names = [...store.list(region), ...publicParameterRecords(region)]
    .map((record) => record.name)
    .filter((name) => name.startsWith(prefix) && (recursive || !name.slice(prefix.length).includes('/')))
    .sort();
  const start =
    typeof input.NextToken === 'string' ? Number(Buffer.from(input.NextToken, 'base64url').toString()) : 0;
  const page = names.slice(start, start + size);
  const end = start + page.length;
  return {
    Parameters: page.map((name) => resolve(call, name)),
    ...(end < names.length ? { NextToken: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}
