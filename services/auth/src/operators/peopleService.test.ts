import { searchModeOf } from './peopleService';

describe('searchModeOf', () => {
  it('reads an account id exactly, an address by its e-mail prefix, and anything else by username prefix', () => {
    expect(searchModeOf('')).toBe('all');
    expect(searchModeOf('64b7f0c2a1b2c3d4e5f60718')).toBe('id');
    expect(searchModeOf('ama@')).toBe('email');
    expect(searchModeOf('ama')).toBe('username');
  });
});
