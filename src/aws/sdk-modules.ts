/*
 * The AWS SDK, imported on first use: a command that makes no call (`cdkd --help`, synth)
 * loads none of it, and a deploy Cloud Control has nothing to do in loads none of Cloud
 * Control's client (its provider module loads on every deploy, as the registry's fallback).
 * The modules behind these name what they use, so the built CLI, which bundles the SDK's ES
 * modules (scripts/bundle-cli.mjs), keeps only that of each package.
 */
export const coreSdk = () => import('./sdk-core.js');

export const cloudControlSdk = () => import('./sdk-cloud-control.js');
