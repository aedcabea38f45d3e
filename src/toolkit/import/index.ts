// The public face of toolkit/import: adopting existing resources into a stack, chosen interactively or by a mapping file.
export * from './import-mapping.js';
export * from './import-resources.js';
