import type { JsonObject } from '../provider.js';

/**
 * What `Ref` and each `Fn::GetAtt` attribute return per type, as CloudFormation returns
 * them, from the API's answer after a create / update / read (`facts`). For every Lambda
 * type Ref is the physical id, so `ref` names what that id is.
 */
export interface RefAttributeRow {
  ref: string;
  attributes: Record<string, (facts: JsonObject) => unknown>;
}

const field = (name: string) => (facts: JsonObject) => facts[name];

/** The function's SnapStart as reported, "off" when the answer has none. */
const snapStart = (facts: JsonObject): { ApplyOn: unknown; OptimizationStatus: unknown } => {
  const reported = (facts.SnapStart ?? {}) as JsonObject;
  return {
    ApplyOn: reported.ApplyOn ?? 'None',
    OptimizationStatus: reported.OptimizationStatus ?? 'Off',
  };
};

export const REF_ATTRIBUTES: Record<string, RefAttributeRow> = {
  'AWS::Lambda::Function': {
    ref: 'function name',
    attributes: {
      Arn: field('FunctionArn'),
      SnapStartResponse: snapStart,
      'SnapStartResponse.ApplyOn': (facts) => snapStart(facts).ApplyOn,
      'SnapStartResponse.OptimizationStatus': (facts) => snapStart(facts).OptimizationStatus,
    },
  },
  'AWS::Lambda::Permission': {
    ref: 'statement id',
    attributes: { Id: field('StatementId') },
  },
  'AWS::Lambda::Version': {
    ref: 'version ARN',
    attributes: { FunctionArn: field('FunctionArn'), Version: field('Version') },
  },
  'AWS::Lambda::Alias': {
    ref: 'alias ARN',
    attributes: { AliasArn: field('AliasArn') },
  },
  'AWS::Lambda::EventSourceMapping': {
    ref: 'mapping UUID',
    attributes: { Id: field('UUID'), EventSourceMappingArn: field('EventSourceMappingArn') },
  },
  'AWS::Lambda::LayerVersion': {
    ref: 'layer version ARN',
    attributes: { LayerVersionArn: field('LayerVersionArn') },
  },
  'AWS::Lambda::Url': {
    ref: 'function ARN (qualified when Qualifier is set)',
    attributes: { FunctionArn: field('FunctionArn'), FunctionUrl: field('FunctionUrl') },
  },
  'AWS::Lambda::EventInvokeConfig': {
    ref: 'FunctionName|Qualifier',
    attributes: {},
  },
};

/** The `Fn::GetAtt` attributes of a type from the API's answer. */
export function attributesFor(type: string, facts: object): JsonObject {
  const row = REF_ATTRIBUTES[type];
  if (!row) throw new Error(`No Ref/GetAtt row for ${type}`);
  return Object.fromEntries(
    Object.entries(row.attributes).map(([name, read]) => [name, read(facts as JsonObject)]),
  );
}
