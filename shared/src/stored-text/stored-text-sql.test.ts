// decodeStoredText owns "stored text back to typed text"; the database has a copy of it,
// intake_stored_text (migration stored_text_search), for the search column and erasure, which run in
// SQL. The two must give the same text for every escape the sanitiser writes and their mixtures.
import { createTestDatabase, testDriverName, type TestDatabase } from '../test/database.js';
import { decodeStoredText, escapeStoredText } from './index.js';

// Every reference the gateway writes, alone, side by side, escaped twice, and next to text that looks
// like one but is not.
const STORED = [
  'Tom &amp; Jerry',
  '&lt;b&gt;bold&lt;/b&gt;',
  'O&#39;Brien said &quot;hello&quot;',
  'a&nbsp;b',
  '&amp;lt; &amp;#39; &amp;quot; &amp;amp; &amp;nbsp;',
  '&&amp;;&#39&quot &#x27; &apos; &#39;&#39;',
  'plain text, no escapes',
  escapeStoredText('if (a<b && c>d) {}').replaceAll("'", '&#39;'),
];

describe(`stored text in SQL on ${testDriverName()}`, () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await testDb.close();
  });

  it('reads every stored escape back exactly as decodeStoredText does', async () => {
    const em = testDb.db.em.fork();
    const decoded: string[] = [];
    for (const stored of STORED) {
      const [row] = await em.execute<{ text: string }[]>('select public.intake_stored_text(?) as "text"', [stored]);
      decoded.push(row!.text);
    }
    expect(decoded).toEqual(STORED.map((stored) => decodeStoredText(stored)));
  });
});
