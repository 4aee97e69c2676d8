#!/usr/bin/env node
// Checks an export of Intake's audit log offline, with nothing but the export and the published
// public keys, and optionally a checkpoint kept outside the database (a witness):
//   node scripts/verify-audit-log.mjs audit-log.ndjson jwks.json [--witness checkpoint.jws]
//   node scripts/verify-audit-log.mjs audit-log.ndjson https://intake.example.org/.well-known/jwks.json
// Needs Node 22+ and `npm install jose canonicalize` (already there in an Intake checkout). Prints one
// JSON line { valid, checkedEntries, firstBadSequence, problem, signedThrough }; exits 0 only when a
// signed checkpoint covers the whole export, 1 otherwise, 2 when a file cannot be read. What it
// checks, and what it cannot (the keyed hashes): docs/audit-log.md ("Exporting and checking offline").
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

/** The statement a checkpoint or anchor line makes, as signed. */
function statementOf(line) {
  const { type, signature: _signature, ...rest } = line;
  return { kind: type, ...rest };
}

function says(statement, line) {
  return statement !== null && canonicalize(statement) === canonicalize(statementOf(line));
}

const statementHash = (line) =>
  createHash('sha256')
    .update(canonicalize(statementOf(line)))
    .digest('hex');

const removedStart = (upTo) => `entries up to ${upTo} were removed, but no signed anchor says retention removed them`;

async function verifyExport(ndjson, keys, witnessJws) {
  const lines = ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  const header = lines[0];
  const entries = lines.filter((line) => line.type === 'entry');
  const statements = lines.filter((line) => line.type === 'anchor' || line.type === 'checkpoint');
  let checked = 0;
  const fail = (firstBadSequence, problem) => ({
    valid: false,
    checkedEntries: checked,
    firstBadSequence,
    problem,
    signedThrough: null,
  });

  if (
    header?.type !== 'intake-audit-log' ||
    !Number.isSafeInteger(header.firstSeq) ||
    !Number.isSafeInteger(header.lastSeq)
  ) {
    return fail(null, 'the first line is not the header of an Intake audit log export');
  }
  for (const statement of statements) {
    if (!says(await signedStatement(statement.signature ?? '', keys), statement)) {
      return fail(statement.seq, `the ${statement.type} at entry ${statement.seq} has no valid signature`);
    }
  }
  const witness = witnessJws === undefined ? undefined : await signedStatement(witnessJws, keys);
  if (witness === null || (witness !== undefined && witness.kind !== 'checkpoint')) {
    return fail(null, 'the witnessed checkpoint has no valid signature');
  }
  // Where the log starts: entry 1, or just after the signed anchor retention left.
  const { firstSeq, lastSeq } = header;
  const anchor = statements.find((statement) => statement.type === 'anchor' && statement.seq === firstSeq - 1);
  if (firstSeq !== 1 && anchor === undefined) {
    return fail(1, removedStart(firstSeq - 1));
  }
  if (entries.length > 0 && entries[0].seq > firstSeq) {
    return fail(firstSeq, removedStart(entries[0].seq - 1));
  }
  const checkpoints = statements.filter((statement) => statement.type === 'checkpoint');
  const statedAt = new Map(checkpoints.map((checkpoint) => [checkpoint.seq, checkpoint]));

  // Entry by entry, in the order the database check takes: a gap, the digest, a signed checkpoint.
  let digest = anchor?.digest ?? '';
  let expected = firstSeq;
  const digests = new Map();
  for (const entry of entries) {
    if (entry.seq !== expected) {
      return fail(expected, `entry ${expected} is missing`);
    }
    const { type: _type, hash: _hash, digest: stored, ...fields } = entry;
    digest = createHash('sha256').update(digest).update(canonicalize(fields)).digest('hex');
    if (digest !== stored) {
      return fail(entry.seq, `entry ${entry.seq} does not match its digest`);
    }
    const checkpoint = statedAt.get(entry.seq);
    if (checkpoint !== undefined && checkpoint.digest !== digest) {
      return fail(entry.seq, `entry ${entry.seq} differs from what a signed checkpoint says of it`);
    }
    digests.set(entry.seq, digest);
    checked += 1;
    expected += 1;
  }
  const last = expected - 1;
  const beyond = Math.max(lastSeq, ...checkpoints.map((checkpoint) => checkpoint.seq));
  if (last < beyond) {
    return fail(last + 1, `entry ${last + 1} is missing: the log ends before entry ${beyond}`);
  }
  if (last > lastSeq) {
    return fail(lastSeq + 1, `the export holds entries after its lastSeq ${lastSeq}`);
  }
  const chained = checkpoints.filter((checkpoint) => checkpoint.count != null).sort((a, b) => a.count - b.count);
  for (let n = 1; n < chained.length; n++) {
    const [before, checkpoint] = [chained[n - 1], chained[n]];
    if (checkpoint.count !== before.count + 1) {
      return fail(
        checkpoint.seq,
        `the checkpoint at entry ${checkpoint.seq} does not follow the one before it: a checkpoint was removed`,
      );
    }
    if (checkpoint.previous !== statementHash(before)) {
      return fail(checkpoint.seq, `the checkpoint at entry ${checkpoint.seq} does not name the one before it`);
    }
  }
  // What a signature covers: the newest checkpoint, or the anchor of a log retention emptied.
  const signedThrough = Math.max(anchor?.seq ?? 0, ...checkpoints.map((checkpoint) => checkpoint.seq));
  if (signedThrough !== lastSeq || (last === 0 && checkpoints.length === 0 && anchor === undefined)) {
    return fail(
      signedThrough + 1,
      `no signed checkpoint covers the export's last entry ${lastSeq}: entries after ${signedThrough} prove nothing`,
    );
  }
  if (witness !== undefined && witness.seq >= firstSeq) {
    if (witness.seq > last) {
      return fail(last + 1, `the log ends at entry ${last}, before the witnessed checkpoint at entry ${witness.seq}`);
    }
    if (digests.get(witness.seq) !== witness.digest) {
      return fail(witness.seq, `entry ${witness.seq} differs from the witnessed checkpoint`);
    }
  }
  return { valid: true, checkedEntries: checked, firstBadSequence: null, problem: null, signedThrough };
}

/** A witness file's last line: a checkpoint's compact JWS, or a JSON object carrying it (`checkpoint` or `auditCheckpoint`). */
function witnessOf(text) {
  const line = text.trim().split('\n').at(-1)?.trim() ?? '';
  if (!line.startsWith('{')) {
    return line;
  }
  const parsed = JSON.parse(line);
  return parsed.checkpoint ?? parsed.auditCheckpoint ?? '';
}

async function main(args) {
  const at = args.indexOf('--witness');
  const witnessFile = at === -1 ? undefined : args[at + 1];
  const [file, keySource] = at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
  if (file === undefined || keySource === undefined || (at !== -1 && witnessFile === undefined)) {
    console.error(
      'usage: node verify-audit-log.mjs <export.ndjson> <jwks.json | https://…/.well-known/jwks.json> [--witness <file>]',
    );
    return 2;
  }
  let ndjson, keys, witness;
  try {
    [ndjson, keys, witness] = await Promise.all([
      readFile(file, 'utf8'),
      readKeys(keySource),
      witnessFile === undefined ? undefined : readFile(witnessFile, 'utf8').then(witnessOf),
    ]);
  } catch (error) {
    console.error(`cannot read the export, the keys or the witness: ${error.message}`);
    return 2;
  }
  const result = await verifyExport(ndjson, keys, witness);
  console.log(JSON.stringify(result));
  return result.valid ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
