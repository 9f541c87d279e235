import type { Provider } from '@nestjs/common';
import { ProviderScanner } from './provider.scanner.js';
import { ToolMetadataAccessor } from './tool-metadata.accessor.js';
import { ToolExplorer } from './tool.explorer.js';
import { ToolRegistry } from './tool.registry.js';

/** Finding the app's `@McpTool` methods and keeping them by name. */
export const discoveryProviders: Provider[] = [ToolRegistry, ToolMetadataAccessor, ProviderScanner, ToolExplorer];
