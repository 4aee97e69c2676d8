import { stopSharedChromium } from './console-chromium.mjs';

export default stopSharedChromium;
