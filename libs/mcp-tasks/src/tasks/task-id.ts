import { randomBytes } from 'node:crypto';

/** 144 bits from the CSPRNG, base64url: 24 URL-safe characters, unguessable. */
export const newTaskId = (): string => randomBytes(18).toString('base64url');
