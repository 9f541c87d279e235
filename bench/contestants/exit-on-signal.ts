// Preloaded into every contestant (`node --import`): SIGTERM/SIGINT end the process through
// process.exit, so `--cpu-prof` still writes its profile when the bench stops a contestant.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
