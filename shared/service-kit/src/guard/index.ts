export {
  CallGuard,
  isOpenCircuit,
  type BreakerSettings,
  type CallGuardOptions,
  type CircuitState,
  type GuardedCallOptions,
} from './callGuard';
export { CallerAbortError, DeadlineExceededError, withDeadline, type Deadline, type DeadlineOptions } from './deadline';
