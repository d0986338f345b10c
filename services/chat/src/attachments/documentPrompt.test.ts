import { citationOf, documentsPrompt } from './documentPrompt';

describe('documentsPrompt', () => {
  it('labels each part as it should be cited and asks for citations', () => {
    const prompt = documentsPrompt(
      [
        {
          name: 'report.pdf',
          textUnit: 'page',
          textParts: [
            { n: 1, text: 'Cocoa exports rose.' },
            { n: 3, text: 'Gold output fell.' },
          ],
        },
        { name: 'notes.md', textUnit: 'section', textParts: [{ n: 2, text: 'Kumasi market days.' }] },
      ],
      10_000,
    );
    expect(prompt).toContain('[report.pdf, p. 1]\nCocoa exports rose.');
    expect(prompt).toContain('[report.pdf, p. 3]\nGold output fell.');
    expect(prompt).toContain('[notes.md, § 2]\nKumasi market days.');
    expect(prompt).toMatch(/cite it with that label, e\.g\. \[report\.pdf, p\. 3\]/);
    expect(prompt).not.toContain('left out');
  });

  it('keeps every document within its share of the budget and says what was left out', () => {
    const long = { n: 1, text: 'x'.repeat(5_000) };
    const prompt = documentsPrompt(
      [
        { name: 'a.pdf', textUnit: 'page', textParts: [long, { n: 2, text: 'second page' }] },
        { name: 'b.pdf', textUnit: 'page', textParts: [long] },
      ],
      2_000,
    );
    expect(prompt.length).toBeLessThan(2_000 + 600);
    expect(prompt).not.toContain('second page');
    expect(prompt.match(/The rest of this document is left out/g)).toHaveLength(2);
    expect(prompt).toContain('[b.pdf, p. 1]');
  });

  it('says plainly when a document has no text', () => {
    expect(documentsPrompt([{ name: 'scan.pdf', textUnit: 'page', textParts: [] }], 1_000)).toContain(
      'No text could be read from this document',
    );
    expect(documentsPrompt([], 1_000)).toBe('');
  });

  it('names pages and sections', () => {
    expect(citationOf('r.pdf', 'page', 4)).toBe('[r.pdf, p. 4]');
    expect(citationOf('r.docx', 'section', 2)).toBe('[r.docx, § 2]');
  });
});
