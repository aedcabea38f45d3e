import type { CollectionTag, ScalarTag, YAMLMap, YAMLSeq } from 'yaml';

/**
 * CloudFormation's YAML short forms (`!Ref x`, `!Join [...]`) as `yaml` custom tags. Each tag
 * becomes the long form (`{ "Fn::Join": [...] }`) so the rest of src/template sees one shape.
 */
const SHORT_FORMS: Record<string, string> = {
  Ref: 'Ref',
  Condition: 'Condition',
  GetAtt: 'Fn::GetAtt',
  Sub: 'Fn::Sub',
  Join: 'Fn::Join',
  Select: 'Fn::Select',
  Split: 'Fn::Split',
  If: 'Fn::If',
  Equals: 'Fn::Equals',
  And: 'Fn::And',
  Or: 'Fn::Or',
  Not: 'Fn::Not',
  FindInMap: 'Fn::FindInMap',
  Base64: 'Fn::Base64',
  GetAZs: 'Fn::GetAZs',
  Cidr: 'Fn::Cidr',
  ImportValue: 'Fn::ImportValue',
  Length: 'Fn::Length',
  ToJsonString: 'Fn::ToJsonString',
  Transform: 'Fn::Transform',
  Contains: 'Fn::Contains',
  EachMemberEquals: 'Fn::EachMemberEquals',
  EachMemberIn: 'Fn::EachMemberIn',
  RefAll: 'Fn::RefAll',
  ValueOf: 'Fn::ValueOf',
  ValueOfAll: 'Fn::ValueOfAll',
};

/** `!GetAtt Res.Attr.Name` → `["Res", "Attr.Name"]`: the logical id never holds a dot. */
export function splitGetAttString(value: string): [string, string] | undefined {
  const dot = value.indexOf('.');
  if (dot <= 0 || dot === value.length - 1) return undefined;
  return [value.slice(0, dot), value.slice(dot + 1)];
}

function scalarValue(name: string, fn: string, value: string): unknown {
  if (name === 'GetAtt') return { [fn]: splitGetAttString(value) ?? value };
  return { [fn]: value };
}

export const CLOUDFORMATION_YAML_TAGS: Array<ScalarTag | CollectionTag> = Object.entries(SHORT_FORMS).flatMap(
  ([name, fn]) => {
    const tag = `!${name}`;
    const scalar: ScalarTag = { tag, resolve: (value: string) => scalarValue(name, fn, value) };
    const seq: CollectionTag = {
      tag,
      collection: 'seq',
      resolve: (node) => ({ [fn]: (node as YAMLSeq).toJSON() }) as never,
    };
    const map: CollectionTag = {
      tag,
      collection: 'map',
      resolve: (node) => ({ [fn]: (node as YAMLMap).toJSON() }) as never,
    };
    return [scalar, seq, map];
  },
);
