// `npm run build` step: the scripts the gateway serves to browsers (docs/static-sites.md), copied into
// gateway/dist/public/ — the ALTCHA widget from the installed `altcha` package (its bundle with its
// workers inside, and its licence), and the gateway's own enhancement script from gateway/public/.
// Nothing is fetched at run time, and the image's runtime stage (production dependencies only) needs
// no `altcha` package: the copy travels in gateway/dist.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const gatewayRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(gatewayRoot, 'dist', 'public');
const require = createRequire(path.join(gatewayRoot, 'package.json'));
// The package exports no path to its browser bundle: it sits beside its CommonJS entry.
const widgetRoot = path.dirname(path.dirname(path.dirname(require.resolve('altcha'))));
const widget = JSON.parse(readFileSync(path.join(widgetRoot, 'package.json'), 'utf8'));

mkdirSync(target, { recursive: true });
// The UMD bundle runs as a classic <script>, and makes its workers from data: URLs, so it works on
// a page of another origin (a worker script from this gateway's origin would be refused there).
copyFileSync(path.join(widgetRoot, 'dist', 'main', 'altcha.umd.min.cjs'), path.join(target, 'altcha.js'));
writeFileSync(
  path.join(target, 'altcha.LICENSE.txt'),
  `altcha ${widget.version} (${widget.license})\n\n${readFileSync(path.join(widgetRoot, 'LICENSE.txt'), 'utf8')}`,
);
copyFileSync(path.join(gatewayRoot, 'public', 'intake-form.js'), path.join(target, 'intake-form.js'));
console.log(`gateway: browser assets copied to dist/public (altcha ${widget.version})`);
