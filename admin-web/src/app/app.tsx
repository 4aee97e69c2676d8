import { MantineProvider, Notification, createTheme, type CSSVariablesResolver, type ModalProps } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from 'react-router';
import { router } from './router';

// The system font stack (Mantine's default): nothing is loaded from another origin. Shade 8 of the
// primary colour keeps white button text at WCAG AA contrast (shade 6, the default, does not).
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'sm',
  components: {
    // Mantine's close buttons are an icon alone: give them a name screen readers announce. The
    // Modal's as a plain object: `Modal.extend` would bring the Modal, its scroll lock and its
    // scroll area into the first chunk, which the sign-in page loads too.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } satisfies Partial<ModalProps> },
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
  },
});

// Mantine's dimmed text (gray 6) and error text (red 6) are below 4.5:1 on white; gray 7 and red 9
// still read as secondary and as an error, and pass. Green's light variant ("Audit log intact")
// writes green 9 on its light green, 3.8:1; a darker green reads 5.8:1.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-green-light-color': '#1e6b30',
  },
  dark: {},
});

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      {/* At the bottom: at the top they covered the header, its menu and Sign out on a phone. */}
      <Notifications position="bottom-right" />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
