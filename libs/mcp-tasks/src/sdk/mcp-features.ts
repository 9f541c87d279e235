import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';

/** A list the SDK server answers for a feature: its result for one caller. */
export type FeatureList = (caller: Principal, params: Record<string, unknown>) => Record<string, unknown>;

/** Something the server offers besides tools (resources, prompts, completions, …), once the app has any. */
export interface McpFeature {
  /** Its key in `capabilities` (`resources`, `prompts`, `completions`). */
  capability: string;
  /** Its value there; `{}` when absent. */
  value?: () => Record<string, unknown>;
  /** The lists the SDK server answers for it (`resources/list`, …), by method. */
  lists?: Record<string, FeatureList>;
}

/**
 * What the server offers besides tools: each feature's explorer offers it at bootstrap when the app has any of it,
 * and both eras read it per request (`server/discover`, 2025-era `initialize`, the lists), so a capability is
 * advertised only for what the app has, and a method of a feature the app lacks is unknown.
 */
@Injectable()
export class McpFeatures {
  private readonly features = new Map<string, McpFeature>();

  offer(feature: McpFeature): void {
    const prior = this.features.get(feature.capability);
    const lists = { ...prior?.lists, ...feature.lists };
    this.features.set(feature.capability, { ...prior, ...feature, lists });
  }

  has(capability: string): boolean {
    return this.features.has(capability);
  }

  /** The capabilities of the features offered. */
  capabilities(): Record<string, Record<string, unknown>> {
    return Object.fromEntries([...this.features.values()].map((f) => [f.capability, f.value?.() ?? {}]));
  }

  /** Every list of the features offered, by method. */
  lists(): Array<[method: string, list: FeatureList]> {
    return [...this.features.values()].flatMap((f) => Object.entries(f.lists ?? {}));
  }
}
