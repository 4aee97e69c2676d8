// What the console shows when a route fails (the router's ErrorBoundary): above all a page whose
// code could not be fetched, as happens to a console left open across an upgrade (its old chunks
// are gone). A reload fetches the current build; nothing typed on the page can be kept.
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { isChunkLoadError } from '../../lib/chunk-load-error';

export function RouteErrorPage() {
  const error = useRouteError();
  const chunkFailed = isChunkLoadError(error);
  return (
    <Center p="xl" component="main">
      <Stack maw={560}>
        <Title order={1} size="h2">
          {chunkFailed ? 'This page could not be loaded' : 'Something went wrong'}
        </Title>
        <Text role="alert">
          {chunkFailed
            ? 'The console may have been updated since this tab was opened, or the connection was interrupted. Reload to get the current version.'
            : `The page stopped with an error${error instanceof Error ? `: ${error.message}` : ''}. Reload to start it again.`}
        </Text>
        <div>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </div>
      </Stack>
    </Center>
  );
}
