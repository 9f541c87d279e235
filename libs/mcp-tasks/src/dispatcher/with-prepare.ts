import type { ToolPipeline } from '../pipeline/tool.invoker.js';

/**
 * The tool's run with its `prepare` step first, both inside the task: a 2025-11-25 call has no MRTR, so its
 * `prepare` can ask only there (and a later attempt of such a task runs both again).
 */
export const withPrepare = (pipeline: ToolPipeline): ToolPipeline => ({
  ...pipeline,
  run: async (args, ctx) => {
    await pipeline.prepare!(args, ctx);
    return pipeline.run(args, ctx);
  },
});
