#!/usr/bin/env node
// `npx switchyard` / `npm start`: the standalone gateway server.
import { runCli } from './run-cli.js';

await runCli(process.argv.slice(2), process.env);
