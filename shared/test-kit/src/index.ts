export { eventually, type EventuallyOptions } from './eventually';
export { identityHeaders, newAccount, newIdentity, unique, type TestIdentity } from './identities';
export { ManualClock, systemClock, type Clock } from './clock';
export { makeDocx, makePdf, makePng, makeZip } from './testFiles';
export { CHATML_TEMPLATE, tinyGguf, writeTinyGguf, type TinyGgufOptions } from './tinyGguf';
