import pg from 'pg';
import type { StoredTask, StoredTasks } from './stored-tasks.reader.js';

/** The `mcp_tasks` table, read with SQL. */
export async function postgresTasks(url: string): Promise<StoredTasks> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const select = 'SELECT id, tool, status, error FROM mcp_tasks';
  return {
    all: async () => (await client.query<StoredTask>(select)).rows,
    get: async (id) => (await client.query<StoredTask>(`${select} WHERE id = $1`, [id])).rows[0],
    close: () => client.end(),
  };
}
