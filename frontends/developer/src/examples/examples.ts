// The Examples tab's samples, as plain strings. `{{BASE_URL}}` stands for the platform's address and
// `{{API_KEY}}` for an API key; the tab fills in the page's origin and `YOUR_API_KEY`. tests/e2e/examples.test.ts
// fills in a running platform and a real key and runs each sample with node, python3 and bash, so what the portal
// shows is known to work. Each sample lists the personas, then asks the `kasa` persona a question through the
// OpenAI-compatible endpoint, and exits non-zero when a call fails.

export interface CodeExample {
  id: 'javascript' | 'python' | 'curl';
  /** The sample's name in English, as tests name their cases; the Examples tab shows `examples.title.<id>`. */
  title: string;
  /** How to run it, shown above the code. */
  runWith: string;
  language: string;
  source: string;
}

const javascript = `// Node.js 20+ (save as kasa.mjs, run: node kasa.mjs) or any modern browser
const BASE_URL = '{{BASE_URL}}';
const API_KEY = '{{API_KEY}}';

async function kasa(method, path, body) {
  const response = await fetch(BASE_URL + path, {
    method,
    headers: {
      Authorization: \`Bearer \${API_KEY}\`,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(\`\${response.status}: \${data?.message ?? response.statusText}\`);
  return data;
}

const personas = await kasa('GET', '/api/personas');
console.log('Personas:', personas.map((p) => p.name).join(', '));

const completion = await kasa('POST', '/v1/chat/completions', {
  model: 'kasa',
  messages: [{ role: 'user', content: 'Akwaaba! What can you do?' }],
});
console.log('Kasa:', completion.choices[0].message.content);
`;

const python = `# Python 3, standard library only (save as kasa.py, run: python3 kasa.py)
import json
import urllib.error
import urllib.request

BASE_URL = "{{BASE_URL}}"
API_KEY = "{{API_KEY}}"


def kasa(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE_URL + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + API_KEY)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        message = json.loads(error.read() or b"{}").get("message", error.reason)
        raise SystemExit(f"{error.code}: {message}")


personas = kasa("GET", "/api/personas")
print("Personas:", ", ".join(p["name"] for p in personas))

completion = kasa("POST", "/v1/chat/completions", {
    "model": "kasa",
    "messages": [{"role": "user", "content": "Akwaaba! What can you do?"}],
})
print("Kasa:", completion["choices"][0]["message"]["content"])
`;

const curl = `# bash with curl (save as kasa.sh, run: bash kasa.sh); --fail-with-body stops on an error answer
set -euo pipefail
BASE_URL="{{BASE_URL}}"
API_KEY="{{API_KEY}}"

curl --silent --show-error --fail-with-body "$BASE_URL/api/personas" \\
  -H "Authorization: Bearer $API_KEY"
echo

curl --silent --show-error --fail-with-body "$BASE_URL/v1/chat/completions" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "kasa", "messages": [{"role": "user", "content": "Akwaaba! What can you do?"}]}'
echo
`;

export const EXAMPLES: readonly CodeExample[] = [
  {
    id: 'javascript',
    title: 'JavaScript (fetch)',
    runWith: 'node kasa.mjs',
    language: 'javascript',
    source: javascript,
  },
  { id: 'python', title: 'Python (standard library)', runWith: 'python3 kasa.py', language: 'python', source: python },
  { id: 'curl', title: 'curl', runWith: 'bash kasa.sh', language: 'bash', source: curl },
];

/** The placeholder a reader replaces with their own key. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';
