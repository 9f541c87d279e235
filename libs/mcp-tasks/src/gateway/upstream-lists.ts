import type { Logger } from '@nestjs/common';
import type { UpstreamClient } from './upstream-client.api.js';
import { tokenFor, type UpstreamConfig } from './upstream.config.js';
import { describeFailure } from './upstream-failure.classifier.js';
import { NO_FEATURES, readUpstreamFeatures, type UpstreamFeatures } from './upstream-features.reader.js';
import { readUpstreamTools, type UpstreamToolEntry } from './upstream-tools.reader.js';

/**
 * What one upstream serves, as last read: its tools (the `tools` filter applied), resources, templates, prompts.
 * A read whose tool list fails changes nothing (and fails); one whose other lists fail keeps their last entries.
 */
export class UpstreamLists {
  private tools: UpstreamToolEntry[] = [];
  private offered: UpstreamFeatures = NO_FEATURES;

  constructor(
    private readonly config: UpstreamConfig,
    private readonly logger: Logger,
  ) {}

  get served(): readonly UpstreamToolEntry[] {
    return this.tools;
  }

  get features(): UpstreamFeatures {
    return this.offered;
  }

  async read(client: UpstreamClient, signal: AbortSignal): Promise<void> {
    const options = { token: await tokenFor(this.config.auth), signal, timeout: this.config.timeout };
    const all = await readUpstreamTools(client, options);
    const features = await readUpstreamFeatures(client, options, this.offered);
    this.tools = all.filter(({ tool }) => {
      try {
        return this.config.serves(tool);
      } catch (err) {
        const why = describeFailure(err);
        this.logger.warn(`upstream "${this.config.name}": the tools filter threw on ${tool.name}: ${why}`);
        return false;
      }
    });
    this.offered = features;
  }
}
