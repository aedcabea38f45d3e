/** cdkd's own verdict on changing one property: it outranks every schema (spec 002). */
export type OwnReplacementRule = 'replace' | 'in-place';

export type OwnRuleLookup = (type: string, property: string) => OwnReplacementRule | undefined;

/**
 * Properties whose replacement behaviour cdkd knows better than the CloudFormation schema:
 * the API fixes them at creation although the schema does not mark them create-only.
 */
const OWN_RULES: Readonly<Record<string, Readonly<Record<string, OwnReplacementRule>>>> = {
  'AWS::DynamoDB::Table': { LocalSecondaryIndexes: 'replace' },
  'AWS::Logs::LogGroup': { LogGroupClass: 'replace' },
};

/**
 * cdkd's own rule for a property, or undefined where a schema decides. A `Custom::*` resource's
 * properties are its handler's, and no schema knows them: an update goes to the handler, which
 * replaces by answering a new PhysicalResourceId (spec 000), so every change is planned in place.
 */
export const ownReplacementRule: OwnRuleLookup = (type, property) => {
  if (type.startsWith('Custom::')) return 'in-place';
  const rules = Object.hasOwn(OWN_RULES, type) ? OWN_RULES[type] : undefined;
  return rules && Object.hasOwn(rules, property) ? rules[property] : undefined;
};
