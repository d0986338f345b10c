// The gateway's identity headers are read the same way by every service: see @kasa/service-kit's identity.ts.
export { identityOf, requireIdentity, type Identity } from '@kasa/service-kit';
