import { runCli } from './cli.program.js';

// The bin of @mcp-tasks/client: `npx @mcp-tasks/client <command> …` (see `runCli`).
process.exitCode = await runCli(process.argv);
