import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { paths } from '../../lib/paths';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Text>
        There is no page at this address.{' '}
        <Anchor component={Link} to={paths.sites}>
          Go to the sites
        </Anchor>
      </Text>
    </>
  );
}
