// The account page with the member's own API tokens: two features on one page, joined here so that
// neither imports the other.
import { AccountPage } from '../../features/account/account-page';
import { OwnTokensSection } from '../../features/tokens/own-tokens-section';

export function AccountRoute() {
  return <AccountPage tokens={<OwnTokensSection />} />;
}
