import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import path from 'node:path';
import type { Logger } from '@kasa/service-kit';
import { EG_LIB } from './expressGateway';

/**
 * Two measured hot spots of express-gateway 1.16 on Node 20, fixed from the outside (EG's files are untouched).
 * On the 2-core benchmark machine together they more than halve the gateway's CPU per proxied request.
 */

interface EgContextConstructor {
  new (): object;
  prototype: object;
  kasaStable?: boolean;
}

/**
 * EG gives every request a context with `Object.create(new EgContextBase())`: a brand-new object as the prototype
 * of each request's context. V8 turns every such object into a prototype (new hidden classes, per request), and
 * every property access on a context becomes megamorphic; EgContextBase also draws a random id per request with
 * `crypto.randomBytes` and the deprecated `new Buffer()`. Together about a third of the gateway's CPU.
 *
 * This swaps the constructor EG's pipelines module will load (it must run before EG boots) for one that returns
 * the same base instance every time, so every context has the same prototype. Contexts keep their own `req`, `res`
 * and `apiEndpoint`, EG's getters and methods (same prototype chain); `requestID` comes from Kasa's request-id
 * policy, which sets it on each context.
 */
export function stableEgContexts(logger: Logger): void {
  const contextPath = require.resolve(path.join(EG_LIB, 'gateway', 'context'));
  const pipelinesPath = require.resolve(path.join(EG_LIB, 'gateway', 'pipelines'));
  const cache = require.cache as Record<string, { exports: unknown } | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Base = require(contextPath) as EgContextConstructor;
  if (Base.kasaStable) return;
  const entry = cache[contextPath];
  if (!entry || cache[pipelinesPath]) {
    logger.warn('cannot give express-gateway contexts a stable prototype; requests will be slower');
    return;
  }
  const shared = new Base();
  const StableContext = function StableContext() {
    return shared;
  } as unknown as EgContextConstructor;
  StableContext.prototype = Base.prototype;
  StableContext.kasaStable = true;
  entry.exports = StableContext;
}

interface ExpressApp {
  request: object;
  response: object;
}

/**
 * Express 4 gives each request and response its methods with `Object.setPrototypeOf(req, app.request)` (and the
 * same for `res`). V8 handles a prototype change of a live object badly: it doubles the CPU time of a proxied
 * request. Node lets a server create its requests and responses from given classes, so the server here creates
 * them with Express's prototypes from the start, and Express's `setPrototypeOf` becomes a no-op (same prototype).
 *
 * EG creates its HTTP server itself, so the classes are set on the server object after the fact, through the two
 * symbols under which Node keeps them (`Symbol(IncomingMessage)`, `Symbol(ServerResponse)`; Node 18 to 24). If a
 * future Node renames them, this logs a warning and changes nothing: slower, still correct.
 */
export function adoptExpressPrototypes(server: Server, logger: Logger): void {
  const app = server.listeners('request')[0] as Partial<ExpressApp> | undefined;
  const symbols = Object.getOwnPropertySymbols(server);
  const requestClass = symbols.find((symbol) => symbol.description === 'IncomingMessage');
  const responseClass = symbols.find((symbol) => symbol.description === 'ServerResponse');
  if (!app?.request || !app.response || !requestClass || !responseClass) {
    logger.warn('cannot give the gateway server Express prototypes; requests will be slower');
    return;
  }

  // Function constructors (not classes): their `prototype` can be Express's objects, which inherit from Node's.
  function ExpressRequest(this: IncomingMessage, socket: import('node:net').Socket) {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: object) {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: object) => void).call(
      this,
      req,
      options,
    );
  }
  ExpressResponse.prototype = app.response;

  const slots = server as unknown as Record<symbol, unknown>;
  slots[requestClass] = ExpressRequest;
  slots[responseClass] = ExpressResponse;
}
