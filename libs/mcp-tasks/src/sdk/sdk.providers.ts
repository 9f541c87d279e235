import type { Provider } from '@nestjs/common';
import { McpFeatures } from './mcp-features.js';
import { SdkFallback } from './sdk-fallback.js';
import { SdkServerFactory } from './sdk-server.factory.js';
import { ToolList } from './tool-list.js';

/** What goes to the official SDK: discovery, the lists, unknown methods. */
export const sdkProviders: Provider[] = [ToolList, McpFeatures, SdkServerFactory, SdkFallback];
