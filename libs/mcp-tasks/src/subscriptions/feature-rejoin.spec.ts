import { afterEach, describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Principal } from '../common/principal.interface.js';
import { LocalTaskEventBus } from '../events/local-task-event.bus.js';
import type { TaskEventBusHealth } from '../events/task-event-bus.interface.js';
import type { InputDelivery } from '../legacy/input-delivery.js';
import { LegacyStreams } from '../legacy/legacy-streams.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { ResourceSubscriptions } from '../resources/resource-subscriptions.js';
import type { StaticResource } from '../resources/resource-definition.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import type { TaskRunner } from '../tasks/task.runner.js';
import { FeatureChangeRelay } from './feature-change.relay.js';
import { FeatureListenHandler } from './feature-listen.handler.js';
import { FeatureRejoinSignal } from './feature-rejoin.signal.js';

/** A bus between instances whose re-joins the test makes: each calls every live follow's `onActive`. */
class RejoiningBus extends LocalTaskEventBus {
  private readonly followers = new Set<() => void>();
  health?: () => TaskEventBusHealth = () => ({ connected: true });
  follow(_topic: string, onActive?: () => void): () => void {
    const follower = onActive ?? (() => undefined);
    this.followers.add(follower);
    return () => void this.followers.delete(follower);
  }
  rejoin(): void {
    for (const onActive of this.followers) onActive();
  }
}

/** An SSE response whose `data:` messages are parsed into `frames`. */
function sseResponse(): { res: ServerResponse; frames: Array<Record<string, any>> } {
  const frames: Array<Record<string, any>> = [];
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    destroyed: false,
    writeHead: () => res,
    flushHeaders: () => undefined,
    write: (chunk: string) => {
      for (const [, data] of chunk.matchAll(/^data: (.*)$/gm)) frames.push(JSON.parse(data));
      return true;
    },
    end: (chunk?: string) => {
      if (chunk) res.write(chunk);
      res.writableEnded = true;
    },
  });
  return { res: res as unknown as ServerResponse, frames };
}

const SUB = 'io.modelcontextprotocol/subscriptionId';
const caller: Principal = { key: 'k', subject: 'me', scopes: [] };
const staticResource = (uri: string) =>
  ({
    kind: 'static',
    name: uri,
    options: { uri, name: uri },
    requiredScopes: [],
    listed: {},
  }) as unknown as StaticResource;

describe('after the bus re-joined, resource and prompt listeners get what they may have missed', () => {
  const opened: ServerResponse[] = [];
  afterEach(() => {
    for (const res of opened.splice(0)) res.emit('close');
  });

  /** One instance's consumers on `bus`, the app having `lists` and the resources docs://a and docs://b. */
  function instance(bus: LocalTaskEventBus, lists: string[] = ['resources', 'prompts']) {
    const features = new McpFeatures();
    for (const capability of lists) features.offer({ capability });
    const registry = new ResourceRegistry();
    for (const uri of ['docs://a', 'docs://b']) registry.add(staticResource(uri));
    const options = { pollInterval: 60_000, maxPerPrincipal: 10 } as ResolvedOptions;
    const delivery = { deliver: async () => undefined, release: async () => undefined } as unknown as InputDelivery;
    const runner = { instanceId: 'i1', stopped: Promise.resolve() } as unknown as TaskRunner;
    const streams = new LegacyStreams(options, new MemoryTaskStore(), bus, delivery, runner);
    const subscriptions = new ResourceSubscriptions();
    const signal = new FeatureRejoinSignal(bus, features);
    new FeatureChangeRelay(bus, subscriptions, streams, features, signal).onModuleInit();
    signal.onApplicationBootstrap();
    const listens = new FeatureListenHandler(options, bus, features, registry, signal);
    /** A 2025-era session's GET stream, subscribed to `uris` (`resources/subscribe`). */
    const session = (id: string, uris: string[] = []) => {
      const { res, frames } = sseResponse();
      opened.push(res);
      streams.openSession(id, 'k', res);
      for (const uri of uris) subscriptions.add(id, uri);
      return frames;
    };
    /** A 2026-07-28 `subscriptions/listen` asking for `notifications`. */
    const listen = async (id: string, notifications: Record<string, unknown>) => {
      const { res, frames } = sseResponse();
      opened.push(res);
      await listens.stream({ id, principal: caller, params: { notifications } }, res);
      return { frames, close: () => res.emit('close') };
    };
    return { session, listen, subscriptions };
  }

  const list = (feature: string) => ({ jsonrpc: '2.0', method: `notifications/${feature}/list_changed`, params: {} });
  const updated = (uri: string) => ({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });

  it('nothing on the first join; on each re-join every list to each session, its URIs to a subscriber', async () => {
    const bus = new RejoiningBus();
    const { session, subscriptions } = instance(bus);
    const one = session('s1', ['docs://a', 'docs://b']);
    const two = session('s2');
    // A session following a URI whose GET stream is on another instance: nothing here.
    subscriptions.add('s3', 'docs://a');
    bus.rejoin();
    expect([one, two]).toEqual([[], []]);
    bus.rejoin();
    expect(one).toEqual([list('resources'), list('prompts'), updated('docs://a'), updated('docs://b')]);
    expect(two).toEqual([list('resources'), list('prompts')]);
    bus.rejoin();
    expect(two).toEqual([list('resources'), list('prompts'), list('resources'), list('prompts')]);
  });

  it('each listen gets what its acknowledged filter names, with its subscription id', async () => {
    const bus = new RejoiningBus();
    const { listen } = instance(bus);
    const both = await listen('L1', { resourcesListChanged: true, resourceSubscriptions: ['docs://b', 'docs://x'] });
    const prompts = await listen('L2', { promptsListChanged: true });
    bus.rejoin();
    expect(both.frames.map((f) => f.method)).toEqual(['notifications/subscriptions/acknowledged']);
    expect(prompts.frames.map((f) => f.method)).toEqual(['notifications/subscriptions/acknowledged']);
    bus.rejoin();
    expect(both.frames.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [SUB]: 'L1' } } },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'docs://b', _meta: { [SUB]: 'L1' } },
      },
    ]);
    expect(prompts.frames.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: { _meta: { [SUB]: 'L2' } } },
    ]);
    // A closed listen hears nothing more.
    both.close();
    bus.rejoin();
    expect(both.frames).toHaveLength(3);
    expect(prompts.frames).toHaveLength(3);
  });

  it('only the lists the app has', async () => {
    const bus = new RejoiningBus();
    const { session, listen } = instance(bus, ['resources']);
    const frames = session('s1');
    const asked = await listen('L1', { resourcesListChanged: true, promptsListChanged: true });
    bus.rejoin();
    bus.rejoin();
    expect(frames).toEqual([list('resources')]);
    expect(asked.frames.map((f) => f.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/resources/list_changed',
    ]);
  });

  it('on the first join too when the bus was down at startup: a stream opened before may have missed one', async () => {
    const bus = new RejoiningBus();
    bus.health = () => ({ connected: false });
    const { session } = instance(bus, ['prompts']);
    const frames = session('s1');
    bus.rejoin();
    expect(frames).toEqual([list('prompts')]);
  });

  it('nothing on a bus that relays in its process only (no health)', async () => {
    const bus = Object.assign(new RejoiningBus(), { health: undefined });
    const { session, listen } = instance(bus);
    const frames = session('s1', ['docs://a']);
    const asked = await listen('L1', { resourcesListChanged: true, promptsListChanged: true });
    bus.rejoin();
    bus.rejoin();
    expect(frames).toEqual([]);
    expect(asked.frames.map((f) => f.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });
});
