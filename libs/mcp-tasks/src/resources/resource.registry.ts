import { Injectable } from '@nestjs/common';
import type { ResourceDefinition, StaticResource, TemplateResource } from './resource-definition.js';

const whereIs = (r: ResourceDefinition): string => `${r.target.instance.constructor.name}.${r.target.methodName}`;

/** What serves a URI: the resource, and the template's variables (none for a static resource). */
export interface ResolvedResource {
  resource: ResourceDefinition;
  variables: Record<string, string | string[]>;
}

/**
 * Every resource and resource template the server serves, in discovery order: a URI is a static resource's, else
 * the first matching template's.
 * @publicApi
 */
@Injectable()
export class ResourceRegistry {
  private readonly statics = new Map<string, StaticResource>();
  private readonly templates: TemplateResource[] = [];

  add(resource: ResourceDefinition): void {
    if (resource.kind === 'static') {
      const prior = this.statics.get(resource.options.uri);
      if (prior) throw duplicate('resource URI', resource.options.uri, prior, resource);
      this.statics.set(resource.options.uri, resource);
      return;
    }
    const prior = this.templates.find((t) => t.name === resource.name);
    if (prior) throw duplicate('resource template name', resource.name, prior, resource);
    this.templates.push(resource);
  }

  get size(): number {
    return this.statics.size + this.templates.length;
  }

  resources(): StaticResource[] {
    return [...this.statics.values()];
  }

  resourceTemplates(): TemplateResource[] {
    return [...this.templates];
  }

  resolve(uri: string): ResolvedResource | undefined {
    const resource = this.statics.get(uri);
    if (resource) return { resource, variables: {} };
    for (const template of this.templates) {
      const variables = template.matcher.match(uri);
      if (variables) return { resource: template, variables };
    }
    return undefined;
  }
}

const duplicate = (what: string, value: string, a: ResourceDefinition, b: ResourceDefinition): Error =>
  new Error(`McpTasksModule: duplicate ${what} "${value}" (${whereIs(a)} and ${whereIs(b)})`);
