import { sectionOf } from './AdminApp';

describe('the console’s sections in the address', () => {
  it('opens People at the base path and for a person, each other section at its name', () => {
    expect(sectionOf('')).toBe('people');
    expect(sectionOf('/')).toBe('people');
    expect(sectionOf('/people/64b7f0c2a1b2c3d4e5f60718')).toBe('people');
    expect(sectionOf('/sales')).toBe('sales');
    expect(sectionOf('/operators')).toBe('operators');
    expect(sectionOf('/providers')).toBe('providers');
    expect(sectionOf('/audit')).toBe('audit');
    expect(sectionOf('/health')).toBe('health');
    expect(sectionOf('/settings')).toBeNull();
  });
});
