// Where the overview's links go. One place, so readable project addresses (issue 14 item 4) change
// them here.
export const projectHref = (slug: string, projectId: string) => `/w/${slug}/p/${projectId}`;

export const taskHref = (slug: string, projectId: string, number: number) =>
  `${projectHref(slug, projectId)}/t/${number}`;
