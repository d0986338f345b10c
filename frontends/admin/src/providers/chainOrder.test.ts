import { moveName } from './chainOrder';

describe('moving a provider in the chain', () => {
  const chain = ['openai', 'groq', 'local'];

  it('swaps it with its neighbour and keeps every other name in place, each once', () => {
    expect(moveName(chain, 'groq', -1)).toEqual(['groq', 'openai', 'local']);
    expect(moveName(chain, 'groq', 1)).toEqual(['openai', 'local', 'groq']);
    expect(moveName(chain, 'openai', 1)).toEqual(['groq', 'openai', 'local']);
    expect(chain).toEqual(['openai', 'groq', 'local']);
  });

  it('does not move the first up, the last down, or a name that is not there', () => {
    expect(moveName(chain, 'openai', -1)).toBeNull();
    expect(moveName(chain, 'local', 1)).toBeNull();
    expect(moveName(chain, 'mistral', 1)).toBeNull();
    expect(moveName(['only'], 'only', 1)).toBeNull();
  });
});
