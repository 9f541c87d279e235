import fc from 'fast-check';
import { badTokens, missingScope } from './auth.mutations.js';
import type { FuzzCase } from './case.js';
import {
  invalidJson,
  metaDuplicate,
  metaExtra,
  metaMissing,
  metaType,
  notAnObject,
  topLevelType,
} from './envelope.mutations.js';
import {
  accept,
  contentType,
  extraHeaders,
  rebinding,
  standardHeaders,
  strayAuthorization,
} from './header.mutations.js';
import { everyMethod, methodGrid } from './method.mutations.js';
import { bogusRoundAnswers, bogusTaskAnswers, tamperedState, type InputFixtures } from './input.mutations.js';
import {
  deep,
  httpMethod,
  huge,
  notARequest,
  oddTaskId,
  oversized,
  toolArgumentsInvalid,
  toolParamTypes,
  unknownMethod,
  updateResponsesType,
} from './param.mutations.js';

/** Every kind of bad request against the demo without auth, weighted. */
export function badRequests(f: InputFixtures): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    { arbitrary: invalidJson, weight: 8 },
    { arbitrary: notAnObject, weight: 3 },
    { arbitrary: topLevelType, weight: 6 },
    { arbitrary: metaMissing, weight: 4 },
    { arbitrary: metaType, weight: 8 },
    { arbitrary: metaExtra, weight: 5 },
    { arbitrary: metaDuplicate, weight: 4 },
    { arbitrary: standardHeaders, weight: 8 },
    { arbitrary: contentType, weight: 3 },
    { arbitrary: accept, weight: 2 },
    { arbitrary: rebinding, weight: 2 },
    { arbitrary: strayAuthorization, weight: 1 },
    { arbitrary: extraHeaders, weight: 2 },
    { arbitrary: unknownMethod, weight: 4 },
    { arbitrary: oddTaskId, weight: 8 },
    { arbitrary: toolParamTypes, weight: 3 },
    { arbitrary: toolArgumentsInvalid, weight: 3 },
    { arbitrary: updateResponsesType, weight: 2 },
    { arbitrary: huge, weight: 3 },
    { arbitrary: deep, weight: 4 },
    { arbitrary: httpMethod, weight: 2 },
    { arbitrary: notARequest, weight: 2 },
    { arbitrary: bogusTaskAnswers(f), weight: 5 },
    { arbitrary: bogusRoundAnswers(f), weight: 3 },
    { arbitrary: tamperedState(f), weight: 6 },
    { arbitrary: everyMethod, weight: 10 },
  );
}

/** Bad or insufficient tokens, against the demo in auth mode whose resource names `port`. */
export const badAuth = (port: number): fc.Arbitrary<FuzzCase> =>
  fc.oneof({ arbitrary: badTokens(port), weight: 9 }, { arbitrary: missingScope(port), weight: 1 });

/** Every accepted message with its limits swept (a fixed grid, beside the weighted mix). */
export { methodGrid };

/** A few multi-megabyte bodies (slow to send, so not part of the weighted mix). */
export { oversized };
