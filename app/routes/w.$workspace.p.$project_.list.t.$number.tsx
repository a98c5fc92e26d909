// The task panel over the list (`/w/:workspace/p/:project/list/t/:number`): the same route module as
// the panel over the board, its loader, action and component, nested here so the list stays drawn
// behind it. Its Close link goes up to the list, the address's query kept.
export { action, default, ErrorBoundary, loader } from './w.$workspace.p.$project.t.$number/route.tsx';
