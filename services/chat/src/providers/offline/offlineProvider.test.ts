import { KnowledgeBase } from './knowledgeBase';
import { OfflineProvider } from './offlineProvider';

const knowledge = KnowledgeBase.load();
const offline = new OfflineProvider(knowledge, 0);

describe('the offline knowledge base', () => {
  it('loads every knowledge file as sections', () => {
    expect(knowledge.size).toBeGreaterThan(20);
  });

  it.each([
    ['What is Kasa?', 'massa', /voice-first, multilingual AI assistant platform/, /About Kasa › What is Kasa/],
    ['How much does the Pro plan cost?', 'massa', /Pro costs \$29 per month/, /plans and pricing › Plans and prices/],
    ['Which SDKs are available?', 'kasa', /JavaScript 1\.2\.4, Python 1\.2\.1/, /SDKs › Official SDKs/],
    ['How do I create a chat session with the API?', 'massa', /POST \/api\/chat\/sessions/, /Using the Kasa API/],
    ['Which languages does Kasa speak?', 'kasa', /120\+ languages/, /About Kasa › Languages/],
    ['Why do I get a 401 error?', 'massa', /401 means you are not signed in/, /Using the Kasa API/],
    ['How many API calls does the free plan include?', 'merla', /1,000 API calls per month/, /plans and pricing/],
    ['How do I stream replies?', 'massa', /text\/event-stream/, /Streaming replies/],
  ])('answers %p (%s) from the notes and names its sources', (question, persona, content, source) => {
    const reply = offline.answer(question, persona, false);
    expect(reply).toMatch(/^I am answering in offline mode/);
    expect(reply).toMatch(content);
    expect(reply).toMatch(source);
    expect(reply).toMatch(/CHAT_PROVIDERS/);
  });

  it.each([
    ['What is the capital of Mongolia?', 'kasa'],
    ['Can Kasa tell me who won the 1994 football world cup?', 'nana'],
    ['Write a sonnet about quantum chromodynamics', 'ticha'],
  ])('says honestly that its notes do not cover %p', (question, persona) => {
    const reply = offline.answer(question, persona, false);
    expect(reply).toMatch(/do not cover that/);
    expect(reply).toMatch(/would rather not guess/);
    expect(reply).toMatch(/OPENAI_API_KEY/);
  });

  it("keeps to the persona's field: dokta knows malaria, merla does not", () => {
    expect(offline.answer('What are the symptoms of malaria?', 'dokta', false)).toMatch(/fever, chills/);
    expect(offline.answer('What are the symptoms of malaria?', 'merla', false)).toMatch(/do not cover that/);
  });

  it('streams the reply word by word', async () => {
    const pieces: string[] = [];
    for await (const chunk of offline.stream({
      personaId: 'kasa',
      model: 'x',
      system: '',
      messages: [{ role: 'user', content: 'What is Kasa?' }],
      signal: new AbortController().signal,
    })) {
      if (chunk.type === 'text') pieces.push(chunk.text);
    }
    expect(pieces.length).toBeGreaterThan(30);
    expect(pieces.join('')).toBe(offline.answer('What is Kasa?', 'kasa', false));
  });
});
