// Pagination cursors, without a database or a server.
import { decodeCursor, encodeCursor } from './cursor.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('cursors', () => {
  it('cursors round-trip and refuse anything else', () => {
    const cursor = { createdAt: new Date('2026-02-03T04:05:06.789Z'), id: ID };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('')).toBeNull();
    expect(decodeCursor(Buffer.from(`123:${ID}x`).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(`abc:${ID}`).toString('base64url'))).toBeNull();
  });
});
