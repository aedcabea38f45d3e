// The public face of src/providers for types: other top-level folders take the provider contract
// and its companions' types from here. Types only, so importing it loads no provider; a value
// import names its module, so a command loads only the providers it runs.
export type * from './provider.js';
export type * from './routing.js';
export type * from './registry.js';
export type * from './live-attributes/port.js';
export type * from './emptiness/index.js';
