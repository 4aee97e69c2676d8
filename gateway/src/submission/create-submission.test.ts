// The submission command hands its temporary uploads to storage with `move`: it tells the request
// which ones storage took over, so that the request does not try to remove them again (an unlink
// of a path that is gone costs a thread-pool call and an error), and never one it did not take.
import { existsSync } from 'node:fs';
import { createTestServices, makeForm, makeSite } from '@intake/shared/test';
import { makeSampleDir, png, receivedFile, removeSampleDir } from '@intake/test-files';
import { DEFAULT_ARCHIVE_LIMITS } from '../files/archive/index.js';
import { createFilePipeline } from '../files/pipeline.js';
import { createSubmission, type SubmissionSteps } from './create-submission.js';
import { submissionStore } from './submission-store.js';

let services: Awaited<ReturnType<typeof createTestServices>>;
let steps: SubmissionSteps;
let dir: string;

beforeAll(async () => {
  services = await createTestServices();
  const pipeline = createFilePipeline({
    scanner: { scanFile: async () => undefined },
    archiveLimits: DEFAULT_ARCHIVE_LIMITS,
  });
  steps = { services, pipeline, store: submissionStore(services.db) };
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
  await services.close();
});

describe('createSubmission and its temporary uploads', () => {
  it('tells the request of each upload storage took over; each is gone, its bytes stored', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site);
    const files = [await receivedFile(dir, 'a.png', png()), await receivedFile(dir, 'b.png', png())];
    const moved: string[] = [];
    const answer = await createSubmission(steps, {
      site,
      form,
      fields: { name: 'Ada' },
      files,
      idempotencyKey: undefined,
      onUploadMoved: (path) => moved.push(path),
    });
    expect(moved).toEqual(files.map((file) => file.path));
    expect(files.map((file) => existsSync(file.path))).toEqual([false, false]);
    expect(answer.files).toHaveLength(2);
  });

  it('tells of none when a file is refused: every upload is still the request to remove', async () => {
    const { site } = await makeSite(services);
    const form = await makeForm(services, site);
    const files = [await receivedFile(dir, 'a.png', png()), await receivedFile(dir, 'b.jpg', png())];
    const moved: string[] = [];
    await expect(
      createSubmission(steps, {
        site,
        form,
        fields: {},
        files,
        idempotencyKey: undefined,
        onUploadMoved: (path) => moved.push(path),
      }),
    ).rejects.toMatchObject({ code: 'file_type_mismatch' });
    expect(moved).toEqual([]);
    expect(files.map((file) => existsSync(file.path))).toEqual([true, true]);
  });
});
