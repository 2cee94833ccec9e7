#!/usr/bin/env node
// The `payment-service-contract` command: a committed launcher, so the bin link exists before the first build.
import '../dist/cli.js';
