#!/usr/bin/env node
// The `filings` command; the program itself is compiled TypeScript under dist/.
import "../dist/cli/main.js"
