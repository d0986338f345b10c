export type TourId = 'welcome' | 'chat' | 'developer';

/**
 * Spec section 3: a guided tour, without its steps (`tourSteps.ts`), which load with the tour card only when a tour
 * shows.
 */
export interface Tour {
  id: TourId;
  name: string;
  description: string;
  /** When it starts by itself (spec section 4). */
  triggerCondition: 'first-visit' | 'signed-in-route';
  targetRoute: string;
  /** Milliseconds after the page loads. */
  delayMs: number;
}

export const TOURS: readonly Tour[] = [
  {
    id: 'welcome',
    name: 'Welcome to Kasa',
    description: 'A one-minute look around: where to chat, build and make Kasa yours.',
    triggerCondition: 'first-visit',
    targetRoute: '/',
    delayMs: 2000,
  },
  {
    id: 'chat',
    name: 'Chat tour',
    description: 'Personas, sessions, streaming replies and the language setting.',
    triggerCondition: 'signed-in-route',
    targetRoute: '/chat',
    delayMs: 1500,
  },
  {
    id: 'developer',
    name: 'Developer portal tour',
    description: 'API keys, documentation, the endpoint tester and SDKs.',
    triggerCondition: 'signed-in-route',
    targetRoute: '/developer',
    delayMs: 1500,
  },
];

export function tourById(id: string): Tour | undefined {
  return TOURS.find((tour) => tour.id === id);
}
