// Reads the pending changesets in .changeset/ and tells which packages have a major bump waiting.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The packages that a pending changeset bumps by a major version.
 *
 * @param {string} directory The `.changeset` directory.
 * @returns {Promise<Set<string>>} Package names.
 * @example
 * (await pendingMajors('.changeset')).has('@payment-service/sdk'); // => false
 */
export async function pendingMajors(directory) {
  const majors = new Set();
  let names = [];
  try {
    names = await readdir(directory);
  } catch {
    return majors;
  }
  for (const name of names) {
    if (!name.endsWith('.md') || name === 'README.md') continue;
    const text = await readFile(join(directory, name), 'utf8');
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
    for (const line of frontMatter.split(/\r?\n/)) {
      const match = /^\s*["']?([^"':]+)["']?\s*:\s*major\s*$/.exec(line);
      if (match?.[1]) majors.add(match[1].trim());
    }
  }
  return majors;
}
