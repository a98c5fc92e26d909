/**
 * A misconfiguration the person starting the backend can fix. `npm run backend` prints it as one
 * line of cause and one of fix, never as a stack trace.
 */
export class SetupProblem extends Error {
  constructor(
    readonly cause_: string,
    readonly fix: string,
  ) {
    super(`${cause_}\n  Fix: ${fix}`);
    this.name = 'SetupProblem';
  }
}
