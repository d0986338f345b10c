import { API_KEY_PLACEHOLDER, EXAMPLES } from '../examples/examples';
import { fillPlaceholders } from '../sdks/catalogue';
import { Card, Code, Muted, Row } from '../ui/controls';
import { CopyButton } from '../ui/CopyButton';

/** Examples: the same two calls in JavaScript, Python and curl, ready to copy and run. */
export default function ExamplesTab() {
  const values = { baseUrl: window.location.origin, apiKey: API_KEY_PLACEHOLDER };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Muted>
        Each example lists the personas, then asks Kasa a question through the OpenAI-compatible endpoint. Replace{' '}
        <code>{API_KEY_PLACEHOLDER}</code> with a key from the Keys tab (scope <code>chat</code>).
      </Muted>
      {EXAMPLES.map((example) => {
        const source = fillPlaceholders(example.source, values);
        return (
          <Card key={example.id} aria-labelledby={`example-${example.id}`} data-testid={`example-${example.id}`}>
            <Row style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
              <h2 id={`example-${example.id}`} style={{ margin: 0 }}>
                {example.title}
              </h2>
              <CopyButton text={source} context={`the ${example.title} example`} />
            </Row>
            <Muted style={{ marginBottom: '0.5rem' }}>
              Run with <code>{example.runWith}</code>
            </Muted>
            <Code tabIndex={0} aria-label={`${example.title} example`}>
              {source}
            </Code>
          </Card>
        );
      })}
    </div>
  );
}
