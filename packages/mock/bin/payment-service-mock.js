#!/usr/bin/env -S node --max-old-space-size=384
// The `payment-service-mock` command: a committed launcher, so the bin link exists before the first build.
// The shebang gives node the heap limit of the default memory budget, so the CLI need not relaunch
// itself to set it (about 120 ms of start-up); heap-limit.test.ts checks the number.
import '../dist/cli.js';
