import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceTemplate } from '@mcp-tasks/nestjs';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The resources the conformance suite's resources scenarios read by URI. */
@Injectable()
export class ResourceFixtures {
  @McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource.' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @McpResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (PNG).',
    mimeType: 'image/png',
  })
  staticBinary(): Buffer {
    return Buffer.from(PNG, 'base64');
  }

  @McpResource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource to subscribe to.' })
  watched(): string {
    return 'Watched resource content.';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for an id, from a template.',
    mimeType: 'application/json',
  })
  templateData({ id }: { id: string }): object {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }
}
