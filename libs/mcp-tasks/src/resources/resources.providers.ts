import type { Provider } from '@nestjs/common';
import { FeatureChangeRelay } from '../subscriptions/feature-change.relay.js';
import { FeatureRejoinSignal } from '../subscriptions/feature-rejoin.signal.js';
import { FeatureListenHandler } from '../subscriptions/feature-listen.handler.js';
import { McpResourceNotifier } from './mcp-resource.notifier.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { ResourceExplorer } from './resource.explorer.js';
import { ResourceRegistry } from './resource.registry.js';

/** Finding the app's `@McpResource` / `@McpResourceTemplate` methods (`resources/read` is the method table's). */
export const resourcesProviders: Provider[] = [
  ResourceRegistry,
  ResourceExplorer,
  ResourceSubscriptions,
  McpResourceNotifier,
  FeatureRejoinSignal,
  FeatureChangeRelay,
  FeatureListenHandler,
];
