import { describe, expect, it } from '@jest/globals';
import { newTaskId } from './task-id.js';

describe('newTaskId', () => {
  it('is 24 URL-safe characters (144 bits) and does not repeat', () => {
    const ids = new Set(Array.from({ length: 20_000 }, newTaskId));
    expect(ids.size).toBe(20_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});
