export { type ProviderRouter, type RoutedProvider, routeLoaded } from './router.js';
export { deleteRecorded, type ProviderCalls } from './delete-recorded.js';
