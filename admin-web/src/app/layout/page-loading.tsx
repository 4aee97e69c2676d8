// What the console shows while the first page's code is fetched (the router's HydrateFallback).
import { Center, Loader } from '@mantine/core';

export function PageLoading() {
  return (
    <Center p="xl" h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
