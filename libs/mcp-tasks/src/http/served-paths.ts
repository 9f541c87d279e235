import { RequestMethod, VersioningType } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { routePaths } from '../pipeline/nest-internals.adapter.js';

/**
 * The paths Nest would route a controller at `path` on: the global prefix (unless excluded) and, with URI versioning,
 * the default version. Computed by Nest's own path factory (which Nest does not export: see `nest-internals.adapter`),
 * so the endpoint lands where a controller would.
 */
export function servedPaths(config: ApplicationConfig, path: string): string[] {
  const versioning = config.getVersioning();
  const version = versioning?.type === VersioningType.URI ? versioning.defaultVersion : undefined;
  const paths = routePaths(
    config,
    {
      ctrlPath: path,
      globalPrefix: config.getGlobalPrefix(),
      versioningOptions: versioning,
      controllerVersion: version,
    },
    RequestMethod.ALL,
  );
  return [...new Set(paths)];
}
