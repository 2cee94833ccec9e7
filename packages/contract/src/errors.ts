// The errors that end a check run before its verdict, each with the exit code the CLI gives it.

/** A run that could not be judged: the CLI exits with `exitCode` and prints `message`. */
export class ContractCheckError extends Error {
  override readonly name: string = 'ContractCheckError';
  constructor(
    message: string,
    /** 2: usage or configuration; 3: the target could not be reached, refused the key, or the run ran out of time. */
    readonly exitCode: 2 | 3,
  ) {
    super(message);
  }
}

/** A usage or configuration error (exit 2): nothing was sent, or the run's own limits stopped it. */
export class ConfigurationError extends ContractCheckError {
  override readonly name = 'ConfigurationError';
  constructor(message: string) {
    super(message, 2);
  }
}

/** The target could not be reached: connection refused, unknown host, TLS, time-out (exit 3: a CI may retry). */
export class TargetUnreachableError extends ContractCheckError {
  override readonly name = 'TargetUnreachableError';
  constructor(message: string) {
    super(message, 3);
  }
}

/** The target refused the key on the first request (exit 3: a CI may retry with another key). */
export class KeyRefusedError extends ContractCheckError {
  override readonly name = 'KeyRefusedError';
  constructor(message: string) {
    super(message, 3);
  }
}

/** The run reached its overall deadline (`--deadline`), or the target let too many requests in a row time out (exit 3). */
export class RunStoppedError extends ContractCheckError {
  override readonly name = 'RunStoppedError';
  constructor(message: string) {
    super(message, 3);
  }
}
