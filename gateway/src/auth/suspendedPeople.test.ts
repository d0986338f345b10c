import { SuspendedPeople } from './suspendedPeople';

describe('SuspendedPeople', () => {
  it('refuses a person from their suspension until their restoration', () => {
    const people = new SuspendedPeople();
    expect(people.has('u1')).toBe(false);
    people.suspend('u1');
    expect(people.has('u1')).toBe(true);
    expect(people.has('u2')).toBe(false);
    people.restore('u1');
    expect(people.has('u1')).toBe(false);
  });

  it('takes a snapshot of the suspended accounts in place of what it knew', () => {
    const people = new SuspendedPeople();
    people.suspend('gone');
    const generation = (people as unknown as { generation: number }).generation;
    expect(people.apply(['a', 'b'], generation)).toBe(true);
    expect(people.has('gone')).toBe(false);
    expect(people.has('a') && people.has('b')).toBe(true);
    expect(people.size).toBe(2);
  });

  it('does not let a snapshot asked for before an event undo that event', () => {
    const people = new SuspendedPeople();
    const askedAt = (people as unknown as { generation: number }).generation;
    people.suspend('late');
    expect(people.apply([], askedAt)).toBe(false);
    expect(people.has('late')).toBe(true);
  });
});
