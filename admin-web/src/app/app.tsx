import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from 'react-router';
import { router } from './router';

// The system font stack (Mantine's default): nothing is loaded from another origin. Shade 8 of the
// primary colour keeps white button text at WCAG AA contrast (shade 6, the default, does not).
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'sm',
});

// Mantine's dimmed text (gray 6) is below 4.5:1 on white; gray 7 reads as secondary and passes.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
