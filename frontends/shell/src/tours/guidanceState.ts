import type { TourId } from './tours';

/** Spec section 3: the saved guidance state. */
export interface GuidanceState {
  hasSeenWelcome: boolean;
  completedTours: TourId[];
}

export const GUIDANCE_STORAGE_KEY = 'kasa_guidance';
const TOUR_IDS: readonly TourId[] = ['welcome', 'chat', 'developer'];

export const EMPTY_GUIDANCE: GuidanceState = { hasSeenWelcome: false, completedTours: [] };

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadGuidance(storage: StorageLike): GuidanceState {
  try {
    const parsed = JSON.parse(storage.getItem(GUIDANCE_STORAGE_KEY) ?? 'null') as Partial<GuidanceState> | null;
    if (!parsed || typeof parsed !== 'object') return EMPTY_GUIDANCE;
    return {
      hasSeenWelcome: parsed.hasSeenWelcome === true,
      completedTours: Array.isArray(parsed.completedTours)
        ? TOUR_IDS.filter((id) => parsed.completedTours!.includes(id))
        : [],
    };
  } catch {
    return EMPTY_GUIDANCE;
  }
}

export function saveGuidance(storage: StorageLike, state: GuidanceState): void {
  try {
    storage.setItem(GUIDANCE_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Refused storage: the tour may show again next visit, which is harmless.
  }
}

/** Reset All Tours: forget what was seen and completed. */
export function clearGuidance(storage: StorageLike): void {
  try {
    storage.removeItem(GUIDANCE_STORAGE_KEY);
  } catch {
    // Nothing was stored.
  }
}

/** Complete: the tour is completed and the welcome counts as seen (spec section 4). */
export function completeTour(state: GuidanceState, id: TourId): GuidanceState {
  return {
    hasSeenWelcome: true,
    completedTours: state.completedTours.includes(id) ? state.completedTours : [...state.completedTours, id],
  };
}

/** Skip Tour or a backdrop click: only skipping the welcome tour is recorded (as seen). */
export function skipTour(state: GuidanceState, id: TourId): GuidanceState {
  return id === 'welcome' ? { ...state, hasSeenWelcome: true } : state;
}

/** Whether a tour should start by itself on this route (spec section 4). */
export function shouldAutoStart(
  state: GuidanceState,
  tour: { id: TourId; triggerCondition: string; targetRoute: string },
  route: { pathname: string; signedIn: boolean },
): boolean {
  if (route.pathname !== tour.targetRoute && !route.pathname.startsWith(`${tour.targetRoute}/`)) return false;
  if (state.completedTours.includes(tour.id)) return false;
  if (tour.triggerCondition === 'first-visit') return route.pathname === '/' && !state.hasSeenWelcome;
  return route.signedIn;
}
