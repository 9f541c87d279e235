import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';

/** The HTTP platforms the wire suites run on. */
export const PLATFORMS = ['express', 'fastify'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Every platform with fastPath off and on: `describe.each(PLATFORM_MATRIX)('… (%s, fastPath %s)', …)`. */
export const PLATFORM_MATRIX: Array<[Platform, boolean]> = PLATFORMS.flatMap((p) => [
  [p, false],
  [p, true],
]);

/** A Nest app on `platform`, as `nest new` makes one (Express) or as the Nest docs set up Fastify. */
export function createPlatformApp(moduleRef: TestingModule, platform: Platform = 'express'): INestApplication {
  return platform === 'fastify'
    ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
    : moduleRef.createNestApplication({ logger: false });
}
