import { GeoLookupQuery, type GeoLookupResponse } from '@kasa/contracts';
import { parseInput } from '@kasa/service-kit';
import { Router } from 'express';
import { callerAddress } from './callerAddress';
import type { GeoDatabase } from './geoDatabase';

/** GET /api/geo: where the caller (or `?ip=`) appears to be. Public; an unknown place is a 200 with `found: false`. */
export function createGeoRouter(deps: { geo: GeoDatabase }): Router {
  const router = Router();
  router.get('/api/geo', (req, res) => {
    const { ip } = parseInput(GeoLookupQuery, req.query, 'query');
    const address = ip ?? callerAddress(req);
    const answer: GeoLookupResponse = address
      ? deps.geo.lookup(address)
      : { ...deps.geo.lookup('::'), ip: '', message: 'unknown location: no caller address' };
    // The answer depends on the caller's address, so no shared cache may keep it.
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.setHeader('Vary', 'X-Forwarded-For');
    res.json(answer);
  });
  return router;
}
