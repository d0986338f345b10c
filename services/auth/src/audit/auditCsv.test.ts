import { auditCsvLine, csvCell } from './auditCsv';

describe('the audit CSV', () => {
  it('quotes cells with commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('writes one line per entry with its details as JSON', () => {
    const line = auditCsvLine({
      id: 'e1',
      at: '2026-12-07T10:00:00.000Z',
      action: 'user.suspended',
      actorId: 'op',
      targetId: 'person',
      clientIp: '203.0.113.7',
      requestId: 'req-1',
      details: { reason: 'spam, again' },
    });
    expect(line).toBe(
      '2026-12-07T10:00:00.000Z,user.suspended,op,person,203.0.113.7,req-1,"{""reason"":""spam, again""}"\r\n',
    );
  });
});
