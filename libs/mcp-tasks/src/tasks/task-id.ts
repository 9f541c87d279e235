import { randomFillSync } from 'node:crypto';

const ID_BYTES = 18;
/** Ids drawn per call into the CSPRNG: one call for 18 bytes cost as much as the rest of making an id. */
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** 144 bits from the CSPRNG, base64url: 24 URL-safe characters, unguessable. Each byte of the pool is used once. */
export function newTaskId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(ID_BYTES * POOL_IDS));
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

/** Printable ASCII, at most 256 characters: anything else cannot name a task in any store. */
export const isPlausibleTaskId = (id: string): boolean => id.length <= 256 && /^[\x21-\x7e]+$/.test(id);
