/** Where a signed-in person lands when no `next` says otherwise: their workspaces. */
export const SIGNED_IN_HOME = '/w';
