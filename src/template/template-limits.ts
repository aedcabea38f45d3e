import { isPlainObject } from './model.js';

/** CloudFormation's quotas a template can exceed; cdkd is not bound by them, the CDK CLI is. */
export const CLOUDFORMATION_LIMITS = {
  resources: 500,
  outputs: 200,
  parameters: 200,
  templateBytes: 1024 * 1024,
} as const;

/**
 * The CloudFormation limits `raw` is above, e.g. `612 resources (limit 500)`; empty when it
 * fits. Template size is measured as compact JSON, the smallest form it can be sent in.
 */
export function limitsExceeded(raw: unknown): string[] {
  if (!isPlainObject(raw)) return [];
  const count = (section: string) => (isPlainObject(raw[section]) ? Object.keys(raw[section]).length : 0);
  const exceeded: string[] = [];
  const check = (what: string, value: number, limit: number) => {
    if (value > limit)
      exceeded.push(`${value.toLocaleString('en-US')} ${what} (limit ${limit.toLocaleString('en-US')})`);
  };
  check('resources', count('Resources'), CLOUDFORMATION_LIMITS.resources);
  check('outputs', count('Outputs'), CLOUDFORMATION_LIMITS.outputs);
  check('parameters', count('Parameters'), CLOUDFORMATION_LIMITS.parameters);
  check('bytes of template', Buffer.byteLength(JSON.stringify(raw)), CLOUDFORMATION_LIMITS.templateBytes);
  return exceeded;
}
