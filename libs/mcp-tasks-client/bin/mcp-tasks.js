#!/usr/bin/env node
// The package's bin, outside dist so it keeps its executable bit across rebuilds; the CLI is src/cli/main.ts.
import '../dist/cli/main.js';
