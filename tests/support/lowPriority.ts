/**
 * A build tool a test runs (cargo, go, tsc) at the lowest CPU priority. The test lanes share the machine's two cores,
 * and a compiler at full priority takes both: a platform booting in the other lane then starves until every one of
 * its services has lost its database connection (seen while cargo compiled the Rust SDK). At nice 19 the build uses
 * what the lanes leave idle. `nice` execs the command, so the process id, exit code and signals are the command's.
 */
export function lowPriority(command: string, args: string[]): [string, string[]] {
  return ['nice', ['-n', '19', command, ...args]];
}
