/**
 * The function an integration or authorizer URI names: a Lambda ARN, or API Gateway's
 * invocation URI around one (`arn:aws:apigateway:{region}:lambda:path/2015-03-31/functions/{arn}/invocations`),
 * after `${stageVariables.name}` references are replaced (a stage choosing an alias).
 */
export function lambdaArnOf(
  uri: string,
  stageVariables: Readonly<Record<string, string>>,
): string | undefined {
  const resolved = withStageVariables(uri, stageVariables);
  if (resolved.startsWith('arn:') && resolved.includes(':lambda:') && !resolved.includes(':apigateway:')) {
    return resolved;
  }
  return /\/functions\/(arn:[^/]+)\/invocations$/.exec(resolved)?.[1];
}

export function withStageVariables(text: string, stageVariables: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{stageVariables\.([A-Za-z0-9_]+)\}/g,
    (_, name: string) => stageVariables[name] ?? '',
  );
}
