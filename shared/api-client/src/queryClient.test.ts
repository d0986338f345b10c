import { ApiError } from './http';
import { queryClientDefaults, retryUnlessClientError } from './queryClient';

describe('retryUnlessClientError, every query’s retry policy', () => {
  it('retries once, but never a 4xx', () => {
    expect(retryUnlessClientError(0, new ApiError(503, 'busy', {}))).toBe(true);
    expect(retryUnlessClientError(1, new ApiError(503, 'busy', {}))).toBe(false);
    expect(retryUnlessClientError(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryUnlessClientError(0, new ApiError(404, 'Session not found', {}))).toBe(false);
    expect(retryUnlessClientError(0, new ApiError(400, 'bad id', {}))).toBe(false);
  });

  it('never retries once a time limit ran out', () => {
    expect(retryUnlessClientError(0, new DOMException('The operation timed out.', 'TimeoutError'))).toBe(false);
  });

  it('is the default of every query', () => {
    expect(queryClientDefaults.queries.retry).toBe(retryUnlessClientError);
  });
});
