// Waits for a file another process writes, without polling: a watch on its directory.
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Resolves with the file's text once `accept` takes it (default: any text that parses as JSON), so a
 * file written in place is read whole.
 *
 * @example
 * const har = JSON.parse(await waitForFile(join(project, 'clean.har')));
 */
export function waitForFile(
  file: string,
  accept: (text: string) => boolean = (text) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file));
    let done = false;
    const look = async () => {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (done || text === undefined || !accept(text)) return;
      done = true;
      watcher.close();
      resolve(text);
    };
    watcher.on('change', () => void look());
    watcher.on('error', reject);
    // Written before the watch began: seen here.
    void look();
  });
}
