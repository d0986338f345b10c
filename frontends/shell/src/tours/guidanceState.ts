import type { TourId } from './tours';

/**
 * Spec section 3's saved guidance state, plus the tours the person skipped: a completed or skipped tour never
 * starts by itself again (the Help & Tours menu still starts it). Kept with the account when signed in (the auth
 * service's /api/auth/preferences/tours), in this browser's storage when signed out.
 */
export interface GuidanceState {
  hasSeenWelcome: boolean;
  completedTours: TourId[];
  skippedTours: TourId[];
}

export const GUIDANCE_STORAGE_KEY = 'kasa_guidance';
const TOUR_IDS: readonly TourId[] = ['welcome', 'chat', 'developer'];

export const EMPTY_GUIDANCE: GuidanceState = { hasSeenWelcome: false, completedTours: [], skippedTours: [] };

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const knownTours = (value: unknown): TourId[] =>
  Array.isArray(value) ? TOUR_IDS.filter((id) => (value as unknown[]).includes(id)) : [];

/** Guidance from anything (stored JSON, the server's answer): only known tours, anything malformed as empty. */
export function toGuidance(value: unknown): GuidanceState {
  if (!value || typeof value !== 'object') return EMPTY_GUIDANCE;
  const parsed = value as Partial<Record<keyof GuidanceState, unknown>>;
  return {
    hasSeenWelcome: parsed.hasSeenWelcome === true,
    completedTours: knownTours(parsed.completedTours),
    skippedTours: knownTours(parsed.skippedTours),
  };
}

export function loadGuidance(storage: StorageLike): GuidanceState {
  try {
    return toGuidance(JSON.parse(storage.getItem(GUIDANCE_STORAGE_KEY) ?? 'null'));
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
    skippedTours: state.skippedTours.filter((skipped) => skipped !== id),
  };
}

/**
 * Skip Tour or a backdrop click: the tour is remembered as skipped, so it does not come back by itself after a
 * reload or a new chat; skipping the welcome tour also counts as having seen it (spec section 4).
 */
export function skipTour(state: GuidanceState, id: TourId): GuidanceState {
  if (state.completedTours.includes(id)) return id === 'welcome' ? { ...state, hasSeenWelcome: true } : state;
  return {
    hasSeenWelcome: state.hasSeenWelcome || id === 'welcome',
    completedTours: state.completedTours,
    skippedTours: state.skippedTours.includes(id) ? state.skippedTours : [...state.skippedTours, id],
  };
}

/** Whether two guidance states say the same. */
export function sameGuidance(a: GuidanceState, b: GuidanceState): boolean {
  const same = (x: TourId[], y: TourId[]) => x.length === y.length && x.every((id) => y.includes(id));
  return (
    a.hasSeenWelcome === b.hasSeenWelcome &&
    same(a.completedTours, b.completedTours) &&
    same(a.skippedTours, b.skippedTours)
  );
}

/** Whether a tour should start by itself on this route (spec section 4). */
export function shouldAutoStart(
  state: GuidanceState,
  tour: { id: TourId; triggerCondition: string; targetRoute: string },
  route: { pathname: string; signedIn: boolean },
): boolean {
  if (route.pathname !== tour.targetRoute && !route.pathname.startsWith(`${tour.targetRoute}/`)) return false;
  if (state.completedTours.includes(tour.id) || state.skippedTours.includes(tour.id)) return false;
  if (tour.triggerCondition === 'first-visit') return route.pathname === '/' && !state.hasSeenWelcome;
  return route.signedIn;
}
