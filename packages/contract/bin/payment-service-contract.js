#!/usr/bin/env node
// The `payment-service-contract` command: a committed launcher, so the bin link exists before the first build. It runs dist/cli.js bundled with its dependencies into one file (scripts/bundle-cli.mjs), which starts in less than half the CPU of its ~300 modules.
import '../dist/cli-bundle.js';
