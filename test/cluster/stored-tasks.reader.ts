/** A task as its store holds it, read without going through an instance. */
export interface StoredTask {
  id: string;
  tool: string;
  status: string;
  error?: { code: number; message: string };
}

/** A cluster's store read directly (its own connection): what the instances wrote, not what they say. */
export interface StoredTasks {
  /** Every task in the store. */
  all(): Promise<StoredTask[]>;
  /** One task, or `undefined`. */
  get(id: string): Promise<StoredTask | undefined>;
  close(): Promise<void>;
}

export const LIVE = ['working', 'input_required'];
