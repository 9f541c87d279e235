import { Injectable } from '@nestjs/common';
import { McpPromptNotifier } from '../prompts/mcp-prompt.notifier.js';
import { McpResourceNotifier } from '../resources/mcp-resource.notifier.js';
import type { UpstreamConnection } from './upstream.connection.js';

/**
 * Relays the upstreams' list changes: once the lists were read again (every `toolsTtl`, on `tools/list_changed`,
 * an upstream connected), `notifications/resources/list_changed` when the upstreams' resources or templates
 * differ from the last read, `notifications/prompts/list_changed` when their prompts do — as the app's own are.
 * Each gateway instance reads its upstreams itself: in a cluster, each announces the change it saw.
 */
@Injectable()
export class UpstreamListChanges {
  /** The lists as last read (none before the first read: nothing to announce then). */
  private resources?: string;
  private prompts?: string;

  constructor(
    private readonly resourceNotifier: McpResourceNotifier,
    private readonly promptNotifier: McpPromptNotifier,
  ) {}

  /** After a read of `upstreams`' lists: announces what changed since the last. */
  read(upstreams: UpstreamConnection[]): void {
    const resources = JSON.stringify(upstreams.map((u) => [u.features.resources, u.features.resourceTemplates]));
    const prompts = JSON.stringify(upstreams.map((u) => u.features.prompts));
    const was = { resources: this.resources, prompts: this.prompts };
    this.resources = resources;
    this.prompts = prompts;
    if (was.resources !== undefined && resources !== was.resources) this.resourceNotifier.listChanged();
    if (was.prompts !== undefined && prompts !== was.prompts) this.promptNotifier.listChanged();
  }
}
