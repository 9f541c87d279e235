import {
  Body,
  createParamDecorator,
  Headers,
  Ip,
  Module,
  Param,
  Query,
  Req,
  RequestMethod,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
  VersioningType,
  type INestApplication,
} from '@nestjs/common';
import { ApplicationConfig, NestFactory } from '@nestjs/core';
import { hasEnhancers, isRouteParamKind, paramKindOf, paramsOf, routePaths } from './nest-internals.adapter.js';

/** One shape `nest-internals.adapter` reads: `check` says what differs in the Nest it runs on, or nothing. */
export interface NestInternalsCheck {
  name: string;
  check: () => Promise<string | undefined>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const differs = (what: string, got: unknown, wanted: unknown): string | undefined =>
  same(got, wanted) ? undefined : `${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(wanted)}`;

const custom = createParamDecorator(() => undefined);
class Params {
  method(@Body('a') _a: unknown, @Req() _r: unknown, @Headers('h') _h: unknown, @Ip() _i: unknown) {}
  more(@Query() _q: unknown, @Param('p') _p: unknown, @Res() _s: unknown, @custom() _c: unknown) {}
  none(_x: unknown) {}
}

class Enhanced {
  @UseGuards(class {})
  guarded(this: void) {}
  @UseInterceptors(class {})
  intercepted(this: void) {}
  @UseFilters(class {})
  filtered(this: void) {}
  plain(this: void) {}
}

@UseInterceptors(class {})
class EnhancedClass {}

@Module({})
class EmptyModule {}

/** Routes Nest gives a controller at `ctrlPath`, in an app `configure`d (global prefix, versioning). */
async function routed(configure: (app: INestApplication) => void, ctrlPath: string): Promise<string[]> {
  const app = await NestFactory.create(EmptyModule, { logger: false, abortOnError: false });
  try {
    configure(app);
    const config = app.get(ApplicationConfig);
    const versioning = config.getVersioning();
    const version = versioning?.type === VersioningType.URI ? versioning.defaultVersion : undefined;
    const route = { ctrlPath, globalPrefix: config.getGlobalPrefix(), versioningOptions: versioning };
    return routePaths(config, { ...route, controllerVersion: version }, RequestMethod.ALL);
  } finally {
    await app.close();
  }
}

/** Every shape the adapter reads, checked on the Nest this runs on (the spec; the adoption test's apps). */
export const NEST_INTERNALS_CHECKS: NestInternalsCheck[] = [
  {
    name: "a method's parameter decorators: kind and position of each, none for an undecorated method",
    check: async () => {
      const entries = [...(paramsOf(Params, 'method') ?? []), ...(paramsOf(Params, 'more') ?? [])];
      const positions = entries.map((e) => e.index).sort((a, b) => a - b);
      const route = [Body(), Req(), Headers(), Ip(), Query(), Param(), Res()].map(paramKindOf);
      const kinds = new Set(entries.map((e) => e.kind));
      return (
        differs('positions', positions, [0, 0, 1, 1, 2, 2, 3, 3]) ??
        differs('undecorated', paramsOf(Params, 'none'), undefined) ??
        differs('route kinds are numbers', route.filter(isRouteParamKind).length, 7) ??
        differs('route kinds differ', new Set(route).size, 7) ??
        differs('kinds found', route.filter((k) => kinds.has(k)).length, 7) ??
        differs('custom kinds', [...kinds].filter((k) => !isRouteParamKind(k)).length, 1)
      );
    },
  },
  {
    name: "a class's or method's own guards, interceptors and filters",
    check: async () => {
      const p = Enhanced.prototype;
      const found = [p.guarded, p.intercepted, p.filtered, p.plain, Enhanced, EnhancedClass].map(hasEnhancers);
      const wanted = [true, true, true, false, false, true];
      return differs('guarded, intercepted, filtered, plain, plain class, enhanced class', found, wanted);
    },
  },
  {
    name: 'the paths Nest routes a controller on: global prefix, its exclusions, URI versioning',
    check: async () =>
      differs('no prefix', await routed(() => undefined, 'mcp'), ['/mcp']) ??
      differs('prefix', await routed((a) => a.setGlobalPrefix('api'), 'mcp'), ['/api/mcp']) ??
      differs('excluded', await routed((a) => a.setGlobalPrefix('api', { exclude: ['mcp'] }), 'mcp'), ['/mcp']) ??
      differs(
        'versioned',
        await routed((a) => {
          a.setGlobalPrefix('api');
          a.enableVersioning({ type: VersioningType.URI, defaultVersion: '2' });
        }, 'mcp'),
        ['/api/v2/mcp'],
      ),
  },
];

/** What differs from the shapes the adapter reads, in the Nest this runs on: one line per check that failed. */
export async function nestInternalsProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const { name, check } of NEST_INTERNALS_CHECKS) {
    const problem = await check().catch((err: unknown) => `threw ${String(err)}`);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  return problems;
}
