// A tiny tmpfs for tests that need a full disk, mounted where no other process sees it: in a mount
// namespace of its own, held by one helper process that ends when the test process does (its stdin
// is a pipe from the test; a killed test closes it). A killed run cannot leave it mounted on the
// machine: the mount is never in the machine's mount table, so nothing later finds it busy.
import { spawn } from 'node:child_process';

/** A mounted small disk: open files under `path`; `close()` unmounts it. */
export interface SmallDisk {
  /** The mounted tmpfs as this process reaches it: `/proc/<helper>/root<mount point>`. */
  path: string;
  /** The helper's pid: the mount lives as long as it does. */
  pid: number;
  /** Ends the helper (and with it the mount, once no file on it is open); resolves at its exit. */
  close(): Promise<void>;
}

/**
 * The command line of the helper: a private mount namespace (util-linux's unshare) where a tmpfs
 * of `bytes` is mounted on `mountPoint`; it prints `mounted` and then waits for the end of stdin.
 *
 * @example
 * const [command, args] = smallDiskCommand('/tmp/run/psm-small-disk-x1Y2z3', 16 * 1024);
 */
export function smallDiskCommand(mountPoint: string, bytes: number): [string, string[]] {
  return [
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      'mount -t tmpfs -o "size=$2,mode=0700" tmpfs "$1" && echo mounted && exec cat >/dev/null',
      'small-disk',
      mountPoint,
      String(bytes),
    ],
  ];
}

/**
 * Mounts a tmpfs of `bytes` on the empty directory `mountPoint`, seen only through the helper's
 * namespace; resolves undefined where that cannot be done (not Linux, not root, no unshare).
 *
 * @example
 * const disk = await mountSmallDisk(temporaryDirectory('psm-small-disk-'), 16 * 1024);
 * if (disk !== undefined) writeFileSync(join(disk.path, 'filler'), Buffer.alloc(8192));
 */
export async function mountSmallDisk(
  mountPoint: string,
  bytes: number,
): Promise<SmallDisk | undefined> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const [command, args] = smallDiskCommand(mountPoint, bytes);
  const helper = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => helper.once('close', () => resolve()));
  let output = '';
  const mounted = await new Promise<boolean>((resolve) => {
    helper.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('mounted\n')) resolve(true);
    });
    helper.once('error', () => resolve(false));
    exited.then(() => resolve(false));
  });
  if (!mounted || helper.pid === undefined) return undefined;
  helper.stdout.resume();
  return {
    path: `/proc/${helper.pid}/root${mountPoint}`,
    pid: helper.pid,
    close: async () => {
      helper.stdin.end();
      await exited;
    },
  };
}
