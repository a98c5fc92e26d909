// "Delete …?" as a page of its own over the list, for a browser without JavaScript: the same route
// module as over the board; its form posts to the panel over the list, and Cancel goes back to it.
export { default, ErrorBoundary, loader, meta } from './w.$workspace.p.$project.t.$number_.delete/route.tsx';
