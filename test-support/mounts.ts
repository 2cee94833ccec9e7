// File systems mounted inside a test run's temporary directory. A test that mounts one (as root:
// reliability's full-log-disk.test.ts mounts a 16 KiB tmpfs) unmounts it in an afterAll hook; a run
// killed before its hooks leaves it mounted, and nothing can remove the directory under it until it
// is unmounted. The run guard unmounts what it finds here before it removes a run's directory.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sep } from 'node:path';

/** Undoes the octal escapes of /proc/self/mounts (`\040` a space, `\011` a tab, `\012` a newline, `\134` a backslash). */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** The mount table of this process (/proc/self/mounts), or '' where there is none (not Linux). */
function readMountTable(): string {
  try {
    return readFileSync('/proc/self/mounts', 'utf8');
  } catch {
    return '';
  }
}

/**
 * The mount points at or under `directory`, deepest first (the order they can be unmounted in).
 *
 * @example
 * mountsUnder('/tmp/psk-test-run-reliability-7490-pxFPwS'); // ['/tmp/psk-test-run-reliability-7490-pxFPwS/psm-small-disk-eWJruh']
 */
export function mountsUnder(directory: string, table: string = readMountTable()): string[] {
  const points: string[] = [];
  for (const line of table.split('\n')) {
    const field = line.split(' ')[1];
    if (field === undefined) continue;
    const point = unescapeMountField(field);
    if (point === directory || point.startsWith(directory + sep)) points.push(point);
  }
  return points.sort((a, b) => b.length - a.length);
}

/**
 * Detaches each mount point (`umount --lazy`: it goes even while a process still holds a file
 * there); returns those that stayed mounted, with what `umount` said. Never throws.
 *
 * @example
 * unmount(mountsUnder(run)); // [] once every one is gone
 */
export function unmount(points: readonly string[]): string[] {
  const stayed: string[] = [];
  for (const point of points) {
    const result = spawnSync('umount', ['--lazy', point], { encoding: 'utf8' });
    if (result.status !== 0) {
      const said = (result.stderr || result.error?.message || `exit ${result.status}`).trim();
      stayed.push(`${point} (${said})`);
    }
  }
  return stayed;
}
