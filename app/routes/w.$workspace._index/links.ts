// Where the overview's links go: the app's one way of building project and task addresses
// (app/utils/projects.ts), by project key.
export { projectPath as projectHref, taskPath as taskHref } from '~/utils/projects.ts';
