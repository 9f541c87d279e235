import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';

/** A list the SDK server answers for a feature: its result for one caller. */
export type FeatureList = (
  caller: Principal,
  params: Record<string, unknown>,
  /** For an extension's list: the app's own result (`{}` without one), to add to. */
  own?: Record<string, unknown>,
) => Record<string, unknown>;

/** Something the server offers besides tools (resources, prompts, completions, …), once the app has any. */
export interface McpFeature {
  /** Its key in `capabilities` (`resources`, `prompts`, `completions`). */
  capability: string;
  /** Its value there; `{}` when absent. */
  value?: () => Record<string, unknown>;
  /** The lists the SDK server answers for it (`resources/list`, …), by method. */
  lists?: Record<string, FeatureList>;
}

/** Entries a feature gets besides the app's own (the gateway's upstream resources and prompts), read per request. */
export interface McpFeatureExtension {
  /** The lists it adds to now (an upstream offers them), by capability. */
  lists(): Record<string, Record<string, FeatureList>>;
  /** A capability's value when the app has none of that feature (`{}` without it). */
  advertised?(capability: string): Record<string, unknown>;
}

/**
 * What the server offers besides tools: each feature's explorer offers it at bootstrap when the app has any of it,
 * and both eras read it per request (`server/discover`, 2025-era `initialize`, the lists), so a capability is
 * advertised only for what the app has, and a method of a feature the app lacks is unknown.
 */
@Injectable()
export class McpFeatures {
  private readonly features = new Map<string, McpFeature>();
  private extension?: McpFeatureExtension;

  offer(feature: McpFeature): void {
    const prior = this.features.get(feature.capability);
    const lists = { ...prior?.lists, ...feature.lists };
    this.features.set(feature.capability, { ...prior, ...feature, lists });
  }

  /** Its lists' entries follow the app's own; a capability it lists is advertised without any of the app's. */
  extend(extension: McpFeatureExtension): void {
    this.extension = extension;
  }

  /** Whether the capability is offered: the app has some of it, or the extension lists some now. */
  has(capability: string): boolean {
    return this.features.has(capability) || Object.hasOwn(this.extension?.lists() ?? {}, capability);
  }

  /**
   * Whether the capability is offered or may be later: the app has some of it, or an extension may list some (the
   * gateway's upstreams, which come and go).
   */
  mayOffer(capability: string): boolean {
    return this.features.has(capability) || !!this.extension;
  }

  /** The capabilities of the features offered. */
  capabilities(): Record<string, Record<string, unknown>> {
    const extension = this.extension;
    const extra = Object.keys(extension?.lists() ?? {}).map((c) => [c, extension?.advertised?.(c) ?? {}]);
    const own = [...this.features.values()].map((f) => [f.capability, f.value?.() ?? {}]);
    return Object.fromEntries([...extra, ...own]);
  }

  /** Every list of the features offered, by method (the extension's entries after the app's). */
  lists(): Array<[method: string, list: FeatureList]> {
    const own = [...this.features.values()].flatMap((f) => Object.entries(f.lists ?? {}));
    const extra = new Map(Object.values(this.extension?.lists() ?? {}).flatMap((l) => Object.entries(l)));
    const lists = own.map(([method, list]): [string, FeatureList] => {
      const more = extra.get(method);
      extra.delete(method);
      return [method, more ? (caller, params) => more(caller, params, list(caller, params)) : list];
    });
    return [...lists, ...[...extra].map(([method, more]): [string, FeatureList] => [method, (c, p) => more(c, p, {})])];
  }
}
