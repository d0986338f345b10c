/** Where the snippet reads the signing secret from (code, the same in every language). */
export const SECRET_VARIABLE = 'KASA_WEBHOOK_SECRET';

/**
 * A Node.js receiver that checks each request with the Standard Webhooks library before trusting it: the raw body
 * (not parsed JSON) and the headers go to `verify`, which throws on a wrong signature, id or timestamp.
 */
export const VERIFY_SNIPPET = `import express from 'express';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.${SECRET_VARIABLE}); // whsec_…
const app = express();

app.post('/webhooks/kasa', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = webhook.verify(req.body, req.headers);
  } catch {
    return res.sendStatus(400);
  }
  console.log(req.headers['webhook-id'], event.type, event.data);
  res.sendStatus(204);
});

app.listen(3000);`;

/** The install command that goes with it. */
export const VERIFY_INSTALL = 'npm install standardwebhooks express';
