import { startSharedChromium } from './console-chromium.mjs';

export default startSharedChromium;
