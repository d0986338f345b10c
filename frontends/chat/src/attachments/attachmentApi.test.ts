import { ATTACHMENT_LIMITS, ATTACHMENT_MEDIA_TYPES } from '@kasa/contracts';
import { ACCEPTED_FILES, ATTACHMENT_RULES } from './attachmentApi';

describe('the composer’s attachment rules', () => {
  it('are the chat service’s limits', () => {
    expect(ATTACHMENT_RULES).toEqual({
      imageBytes: ATTACHMENT_LIMITS.imageBytes,
      documentBytes: ATTACHMENT_LIMITS.documentBytes,
      perMessage: ATTACHMENT_LIMITS.perMessage,
    });
  });

  it('let the file picker offer every type the service accepts', () => {
    const offered = ACCEPTED_FILES.split(',');
    for (const type of [...ATTACHMENT_MEDIA_TYPES.image, ...ATTACHMENT_MEDIA_TYPES.document]) {
      expect(offered).toContain(type);
    }
  });
});
