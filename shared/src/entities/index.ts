import { AdminUserSchema } from './admin-user.js';
import { ApiTokenSchema } from './api-token.js';
import { FormSchema } from './form.js';
import { SiteSchema } from './site.js';
import { StoredFileSchema } from './stored-file.js';
import { SubmissionSchema } from './submission.js';

export * from './admin-user.js';
export * from './api-token.js';
export * from './form.js';
export * from './site.js';
export * from './stored-file.js';
export * from './submission.js';

export const ENTITIES = [SiteSchema, FormSchema, SubmissionSchema, StoredFileSchema, AdminUserSchema, ApiTokenSchema];
