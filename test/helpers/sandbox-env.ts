// No vitest here: the chaos script (scripts/chaos.ts) points the CLI at a sandbox outside a test run.

/** Environment that points the real AWS SDK at a sandbox, with fake credentials. */
export function sandboxEnv(url: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDSANDBOX',
    AWS_SECRET_ACCESS_KEY: 'sandbox-secret',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Deploys run unattended, as a CI job set up so would; test/e2e/require-approval.test.ts sets its own.
    CDKD_REQUIRE_APPROVAL: 'never',
  };
}
