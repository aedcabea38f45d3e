// cdkd pins an AWS SDK release that supports Node 20, so the SDK's notice that
// future releases will need Node 22 is noise for cdkd's users. Imported first by main.ts.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
