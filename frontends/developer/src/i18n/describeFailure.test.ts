import { ApiError, describeFailure } from '@kasa/api-client';
import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import arabic from './ar.json';
import { translatorFor } from './testing';

const timeout = () => Object.assign(new Error('The operation timed out.'), { name: 'TimeoutError' });

describe('describeFailureIn', () => {
  const en = translatorFor();
  const ar = translatorFor('ar', arabic);

  it('words what the browser writes itself exactly as @kasa/api-client does in English', () => {
    for (const error of [timeout(), new TypeError('Failed to fetch'), new ApiError(503, undefined, 'down'), 'boom'])
      expect(describeFailureIn(en, error)).toBe(describeFailure(error));
  });

  it('words it in the interface language', () => {
    expect(describeFailureIn(ar, timeout())).toBe(arabic['failure.timeout']);
    expect(describeFailureIn(ar, new TypeError('Failed to fetch'))).toBe(arabic['failure.network']);
    expect(describeFailureIn(ar, new ApiError(502, undefined, null))).toContain('(502)');
    expect(describeFailureIn(ar, new ApiError(502, undefined, null))).not.toMatch(/slow or unavailable/);
  });

  it('shows what the API said as it came, with its status', () => {
    const conflict = new ApiError(409, 'You already have 25 active API keys; revoke one first.', null);
    expect(describeFailureIn(ar, conflict)).toBe('409: You already have 25 active API keys; revoke one first.');
    const gateway = new ApiError(504, 'Chat service took too long to answer. Please try again.', null);
    expect(describeFailureIn(ar, gateway)).toBe('504: Chat service took too long to answer. Please try again.');
  });
});
