// The two-factor page (auth) with the account feature's Add passkey button, which a member the team's
// policy holds may use instead: joined here so that neither feature imports the other.
import { AddPasskeyButton } from '../../features/account/add-passkey';
import { TwoFactorPage } from '../../features/auth/two-factor-page';

export function TwoFactorRoute() {
  return <TwoFactorPage addPasskey={<AddPasskeyButton variant="default" />} />;
}
