import { Column, Entity, Index, PrimaryColumn, type ValueTransformer } from 'typeorm';
import type { CallToolResult, InputRequests, TaskError, TaskStatus } from '../../protocol/wire.interface.js';
import type { InputChannel, TaskGeneration, TaskResume, TaskUpstream } from '../task.record.js';

/** Epoch milliseconds in a `bigint` column: `pg` returns those as strings, SQLite as numbers. */
const epochMs: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * One row per task in `mcp_tasks`. Column types are the portable subset (text, json, bigint) so the
 * same entity and migration serve SQLite and PostgreSQL; times are epoch ms like `TaskRecord`.
 * @publicApi
 */
@Entity({ name: 'mcp_tasks' })
@Index('IDX_mcp_tasks_owner_status', ['ownerKey', 'status'])
@Index('IDX_mcp_tasks_expires_at', ['expiresAt'])
@Index('IDX_mcp_tasks_status_lease', ['status', 'leaseExpiresAt'])
@Index('IDX_mcp_tasks_created', ['createdAt', 'id'])
@Index('IDX_mcp_tasks_tool_created', ['tool', 'createdAt'])
@Index('IDX_mcp_tasks_owner_created', ['ownerKey', 'createdAt', 'id'])
export class McpTaskEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'owner_key', type: 'text' })
  ownerKey: string;

  @Column({ type: 'text' })
  tool: string;

  @Column({ type: 'text' })
  status: TaskStatus;

  @Column({ name: 'status_message', type: 'text', nullable: true })
  statusMessage: string | null;

  @Column({ name: 'input_requests', type: 'json' })
  inputRequests: InputRequests;

  @Column({ name: 'input_responses', type: 'json' })
  inputResponses: Record<string, unknown>;

  @Column({ type: 'json', nullable: true })
  result: CallToolResult | null;

  @Column({ type: 'json', nullable: true })
  error: TaskError | null;

  @Column({ name: 'required_scopes', type: 'json' })
  requiredScopes: string[];

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt: number;

  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: epochMs })
  expiresAt: number | null;

  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_expires_at', type: 'bigint', nullable: true, transformer: epochMs })
  leaseExpiresAt: number | null;

  /** `NULL`: 2026-07-28 (rows from before the column, and every task of that wire). */
  @Column({ type: 'text', nullable: true })
  generation: TaskGeneration | null;

  @Column({ type: 'text', nullable: true })
  session: string | null;

  @Column({ name: 'input_channel', type: 'json', nullable: true })
  inputChannel: InputChannel | null;

  /** The upstream task this one mirrors (gateway), or null. Written once, at creation. */
  @Column({ type: 'json', nullable: true })
  upstream: TaskUpstream | null;

  /** Which run of the tool this is: 1, plus one per takeover of a resumable task (rows from before the column: 1). */
  @Column({ type: 'integer', default: 1 })
  attempt: number;

  /** The tool's last `ctx.checkpoint` value, or null. */
  @Column({ type: 'json', nullable: true })
  checkpoint: unknown;

  /** What another instance needs to run a resumable task again (args, bound, call); null for other tasks. */
  @Column({ type: 'json', nullable: true })
  resume: TaskResume | null;
}
