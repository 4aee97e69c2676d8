// Run first: `scripts/start.js` imports it before anything else, and the npm scripts that start
// something run it before the build. On a Node.js older than `engines.node` in package.json it says
// so in one line and exits 1, instead of a stack trace from deep inside a dependency that needs a
// newer Node. It imports nothing and uses only old syntax, so that it runs on any Node.
const required = { major: 22, minor: 17 };
const [major, minor] = process.versions.node.split('.').map(Number);

if (major < required.major || (major === required.major && minor < required.minor)) {
  process.stderr.write(
    `Intake needs Node.js ${required.major}.${required.minor} or later, 24 LTS recommended; this is ${process.versions.node}\n`,
  );
  process.exit(1);
}
