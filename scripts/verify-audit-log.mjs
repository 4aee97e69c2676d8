#!/usr/bin/env node
// Checks an export of Intake's audit log offline, with nothing but the export and the published
// public keys (docs/audit-log.md):
//
//   node scripts/verify-audit-log.mjs audit-log.ndjson jwks.json
//   node scripts/verify-audit-log.mjs audit-log.ndjson https://intake.example.org/.well-known/jwks.json
//
// Needs Node 22+ and two packages: `npm install jose canonicalize` (already there in an Intake checkout).
// Prints one JSON line { valid, checkedEntries, firstBadSequence, problem, signedThrough } and exits
// 0 when the export is whole and every entry up to `signedThrough` is what a signed checkpoint
// covers, 1 when it is not, 2 when it cannot be read.
//
// What it checks: every anchor and checkpoint carries a valid EdDSA signature by one of the keys;
// the entries are numbered without a gap from the signed anchor (or from 1); each entry's digest is
// SHA-256(previous digest ‖ the entry in canonical JSON, RFC 8785) and matches the digest that the
// signed checkpoints state. It cannot check the entries' keyed hashes (those need the server's key;
// `verifyAuditLog` in the admin API does).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import canonicalize from 'canonicalize';
import { compactVerify, createLocalJWKSet } from 'jose';

const CHECKPOINT_TYPE = 'intake-audit-checkpoint+jws';

async function readKeys(source) {
  const text = /^https?:\/\//.test(source)
    ? await (await globalThis.fetch(source)).text()
    : await readFile(source, 'utf8');
  return createLocalJWKSet(JSON.parse(text));
}

/** The statement a signature makes, or null when it is not a valid checkpoint signature of these keys. */
async function signedStatement(signature, keys) {
  try {
    const { payload, protectedHeader } = await compactVerify(signature, keys, { algorithms: ['EdDSA'] });
    return protectedHeader.typ === CHECKPOINT_TYPE ? JSON.parse(new TextDecoder().decode(payload)) : null;
  } catch {
    return null;
  }
}

function says(statement, line) {
  return (
    statement !== null &&
    statement.kind === line.type &&
    statement.seq === line.seq &&
    statement.hash === line.hash &&
    statement.digest === line.digest
  );
}

async function verifyExport(ndjson, keys) {
  const lines = ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  const entries = lines.filter((line) => line.type === 'entry');
  const statements = lines.filter((line) => line.type === 'anchor' || line.type === 'checkpoint');
  const fail = (checkedEntries, firstBadSequence, problem) => ({
    valid: false,
    checkedEntries,
    firstBadSequence,
    problem,
    signedThrough: null,
  });

  for (const statement of statements) {
    if (!says(await signedStatement(statement.signature ?? '', keys), statement)) {
      return fail(0, statement.seq, `the ${statement.type} at entry ${statement.seq} has no valid signature`);
    }
  }
  // Where the log starts: entry 1, or just after the signed anchor retention left.
  const firstSeq = entries[0]?.seq ?? lines[0]?.firstSeq ?? 1;
  const anchor = statements.find((statement) => statement.type === 'anchor' && statement.seq === firstSeq - 1);
  if (firstSeq !== 1 && anchor === undefined) {
    return fail(
      0,
      1,
      `the export starts at entry ${firstSeq}, and no signed anchor says the entries before it were removed`,
    );
  }
  const checkpoints = statements.filter((statement) => statement.type === 'checkpoint');

  let digest = anchor?.digest ?? '';
  let expected = firstSeq;
  const digests = new Map();
  for (const entry of entries) {
    if (entry.seq !== expected) {
      return fail(expected - firstSeq, expected, `entry ${expected} is missing`);
    }
    const { type: _type, hash: _hash, digest: stated, ...fields } = entry;
    digest = createHash('sha256').update(digest).update(canonicalize(fields)).digest('hex');
    if (digest !== stated) {
      return fail(
        expected - firstSeq,
        entry.seq,
        `entry ${entry.seq} does not match its digest: it was changed or moved`,
      );
    }
    digests.set(entry.seq, digest);
    expected += 1;
  }
  const last = expected - 1;
  let signedThrough = anchor?.seq ?? null;
  for (const checkpoint of checkpoints) {
    if (checkpoint.seq > last) {
      return fail(
        entries.length,
        last + 1,
        `entry ${last + 1} is missing: a signed checkpoint covers entries up to ${checkpoint.seq}`,
      );
    }
    if (checkpoint.seq >= firstSeq) {
      if (digests.get(checkpoint.seq) !== checkpoint.digest) {
        return fail(
          entries.length,
          checkpoint.seq,
          `entry ${checkpoint.seq} differs from what a signed checkpoint says of it`,
        );
      }
      signedThrough = Math.max(signedThrough ?? 0, checkpoint.seq);
    }
  }
  return { valid: true, checkedEntries: entries.length, firstBadSequence: null, problem: null, signedThrough };
}

async function main([file, keySource]) {
  if (file === undefined || keySource === undefined) {
    console.error('usage: node verify-audit-log.mjs <export.ndjson> <jwks.json | https://…/.well-known/jwks.json>');
    return 2;
  }
  let ndjson, keys;
  try {
    [ndjson, keys] = await Promise.all([readFile(file, 'utf8'), readKeys(keySource)]);
  } catch (error) {
    console.error(`cannot read the export or the keys: ${error.message}`);
    return 2;
  }
  const result = await verifyExport(ndjson, keys);
  console.log(JSON.stringify(result));
  return result.valid ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
