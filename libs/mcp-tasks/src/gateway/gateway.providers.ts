import type { Provider } from '@nestjs/common';
import { MirrorKeeper } from './mirror.keeper.js';
import { UpstreamFeatureCall } from './upstream-feature.call.js';
import { UpstreamFeatureList } from './upstream-feature.list.js';
import { UpstreamListChanges } from './upstream-list.changes.js';
import { UpstreamTaskRelay } from './upstream-task.relay.js';
import { UpstreamToolCall } from './upstream-tool.call.js';
import { UpstreamToolPipeline } from './upstream-tool.pipeline.js';
import { UpstreamRegistry } from './upstream.registry.js';

/** The `upstreams` option: connections, proxied calls, the mirrors of upstream tasks, upstream
 * resources and prompts (idle without upstreams). */
export const gatewayProviders: Provider[] = [
  UpstreamRegistry,
  UpstreamListChanges,
  UpstreamToolPipeline,
  UpstreamTaskRelay,
  MirrorKeeper,
  UpstreamToolCall,
  UpstreamFeatureCall,
  UpstreamFeatureList,
];
