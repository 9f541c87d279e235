import { randomBytes } from 'node:crypto';

/** 144 bits from the CSPRNG, base64url: 24 URL-safe characters, unguessable. */
export const newTaskId = (): string => randomBytes(18).toString('base64url');

/** Printable ASCII, at most 256 characters: anything else cannot name a task in any store. */
export const isPlausibleTaskId = (id: string): boolean => id.length <= 256 && /^[\x21-\x7e]+$/.test(id);
