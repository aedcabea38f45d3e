// The public face of toolkit/destroy: destroying an app's stacks, and the question asked first.
export * from './destroy-app.js';
export * from './destroy-question.js';
