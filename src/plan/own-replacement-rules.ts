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

/** cdkd's own rule for a property, or undefined where a schema decides. */
export const ownReplacementRule: OwnRuleLookup = (type, property) => {
  const rules = Object.hasOwn(OWN_RULES, type) ? OWN_RULES[type] : undefined;
  return rules && Object.hasOwn(rules, property) ? rules[property] : undefined;
};
