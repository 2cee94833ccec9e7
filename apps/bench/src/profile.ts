// Profiles the mock's CLI under create load with `node --cpu-prof` and summarizes self time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadTool } from './load/index.js';
import type { BenchSettings } from './modes.js';
import { benchDirectory, removeBenchDirectory } from './owned.js';
import { createLoadSpec } from './payment-request.js';
import { type ProfileSummary, summarizeProfile } from './profile-summary.js';
import { type ServerName, serverCommand, startServer } from './servers.js';

/** A profile of one server variant under create load. */
export interface ProfileResult extends ProfileSummary {
  server: ServerName;
  seconds: number;
  requestsPerSecond: number;
}

/**
 * Starts the mock CLI under `node --cpu-prof`, drives creates at it for `settings.profileSeconds`,
 * stops it (the profile is written on exit) and summarizes the top self-time functions.
 *
 * @example
 * const profile = await profileMock('mock', loadTool, settingsFor('full'), '/tmp');
 * profile.topFunctions.slice(0, 3);
 */
export async function profileMock(
  name: Extract<ServerName, 'mock' | 'mock-quiet'>,
  tool: LoadTool,
  settings: BenchSettings,
  logDir: string,
): Promise<ProfileResult> {
  const profileDir = benchDirectory('bench-profile-');
  try {
    const server = await startServer(serverCommand(name), logDir, [
      '--cpu-prof',
      `--cpu-prof-dir=${profileDir}`,
    ]);
    let requestsPerSecond = 0;
    try {
      const result = await tool.run(
        createLoadSpec(server.url, settings.connections, settings.profileSeconds),
      );
      requestsPerSecond = result.requestsPerSecond;
    } finally {
      await server.stop();
    }
    // A CLI started without a heap limit relaunches itself (node flags are passed on), so a launcher
    // writes a profile too: the server's is the largest.
    const file = readdirSync(profileDir)
      .filter((entry) => entry.endsWith('.cpuprofile'))
      .sort((a, b) => statSync(join(profileDir, b)).size - statSync(join(profileDir, a)).size)[0];
    if (file === undefined) throw new Error('node --cpu-prof wrote no profile');
    const summary = summarizeProfile(JSON.parse(readFileSync(join(profileDir, file), 'utf8')));
    return { server: name, seconds: settings.profileSeconds, requestsPerSecond, ...summary };
  } finally {
    removeBenchDirectory(profileDir);
  }
}
