import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { McpResource, McpResourceTemplate } from '@mcp-tasks/nestjs';
import { ManifestParams } from './manifest.dto.js';

/** What export_project works on, as resources: its limits, and the files of a project (a template). */
@Injectable()
export class ManifestService {
  @McpResource({
    uri: 'demo://export/limits',
    name: 'export-limits',
    title: 'Export limits',
    description: 'What export_project accepts: how many files, how slow, which scope.',
    mimeType: 'application/json',
    cache: { ttlMs: 300_000 },
  })
  limits(): object {
    return {
      files: { min: 1, max: 1000, default: 5 },
      delayMs: { min: 0, max: 10_000, default: 200 },
      scope: 'export',
    };
  }

  @McpResourceTemplate({
    uriTemplate: 'demo://projects/{project}/manifest',
    name: 'project-manifest',
    title: 'Project manifest',
    description: 'The files export_project would export for a project (made-up but stable: the same every read).',
    mimeType: 'application/json',
    params: ManifestParams,
  })
  manifest({ project }: ManifestParams): object {
    const seed = createHash('sha256').update(project).digest();
    const files = Array.from({ length: 1 + (seed[0]! % 5) }, (_, i) => ({
      path: `${project}/part-${i + 1}.dat`,
      bytes: seed.readUInt16BE(2 + 2 * i) * 16,
    }));
    return { project, files };
  }
}
