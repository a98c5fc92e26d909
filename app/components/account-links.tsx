import { Form, Link } from '@remix-run/react';

/** A signed-in page's way to the account and out: the "Account" link and the sign-out button. */
export function AccountLinks() {
  return (
    <>
      <Link to="/account" className="hover:underline">
        Account
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className="hover:underline">
          Sign out
        </button>
      </Form>
    </>
  );
}
