// The gateway as operators run it: `gateway/dist/main.js` in its own process (the build comes first,
// as `npm run test:reliability` does), configured through the environment, found by the JSON
// `listening` line it logs.
import { listeningUrl, runScript, stopProcess, type StartedProcess } from '@intake/shared/test';

export interface GatewayProcess extends StartedProcess {
  url: string;
}

export async function spawnGateway(
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<GatewayProcess> {
  const started = runScript('gateway/dist/main.js', cwd, env);
  try {
    return { ...started, url: await listeningUrl(started, 'gateway', timeoutMs) };
  } catch (error) {
    await stopProcess(started);
    throw error;
  }
}
