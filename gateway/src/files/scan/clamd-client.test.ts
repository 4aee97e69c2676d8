import { describe, expect, it } from '@jest/globals';
import { parseInstreamReply } from './clamd-client.js';

describe('parseInstreamReply', () => {
  it('reads the clean verdict', () => {
    expect(parseInstreamReply('stream: OK')).toEqual({ verdict: 'clean' });
  });

  it('reads a detection with its signature name', () => {
    expect(parseInstreamReply('stream: Eicar-Test-Signature FOUND')).toEqual({
      verdict: 'infected',
      signature: 'Eicar-Test-Signature',
    });
    // ExtendedDetectionInfo adds the hash and size to the name.
    expect(parseInstreamReply('stream: Eicar-Test-Signature(44d88612fea8a8f36de82e1278abb02f:68) FOUND')).toMatchObject(
      {
        verdict: 'infected',
      },
    );
  });

  it('reads everything else as an error, never as clean', () => {
    for (const text of [
      '',
      'INSTREAM size limit exceeded. ERROR',
      'UNKNOWN COMMAND',
      'stream: OK extra',
      'file: OK',
      'COMMAND READ TIMED OUT',
      'MAX QUEUE',
    ]) {
      expect(parseInstreamReply(text).verdict).toBe('error');
    }
  });
});
