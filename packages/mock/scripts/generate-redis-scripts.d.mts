// Types of the Redis scripts generator for its tests (the generator itself is plain JavaScript).

/** The generator as its CLI runs it, without exiting: the exit code and what it wrote to stderr. */
export function generateRedisScripts(args: string[]): { status: number; stderr: string };
